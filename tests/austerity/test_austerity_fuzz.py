"""Fuzzing the hub: players sending random garbage, truncated lines and early exits.

Every game must end with a documented status, stdout and stderr consistent with it, and
every move the hub printed must have been legal (checked by replaying stdout on the rules).
"""

from __future__ import annotations

import random
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from austerity_support import DECKS, PLAYERS, hub, make_fake, pid_alive

from cardtable.games.austerity.codec import parse_action
from cardtable.games.austerity.deck import load_deck
from cardtable.games.austerity.rules import Game

GAMES = 40
ACTION = re.compile(r"Player ([A-Z]) (?:purchased (\d+) using ([\d,]+)|drew ([\d,]+)|took a wild)$")
STATUS = re.compile(r"Player [A-Z] (ended with status [1-9]\d*|shutdown after receiving signal 9)$")
ENDINGS = {0: "", 6: "Client disconnected", 7: "Protocol error by client"}


def replay(deck_name: str, tokens: int, points: int, count: int, out: list[str]) -> Game:
    """Apply the hub's stdout to a fresh game, checking each move and each new card."""
    deck = load_deck(str(DECKS / deck_name))
    game = Game(deck, tokens, points, count)
    expected_cards = iter(deck)
    for _ in game.opening():
        assert out.pop(0).startswith("New card = ")
        next(expected_cards)
    while out and out[0].startswith("Player "):
        match = ACTION.match(out.pop(0))
        assert match, "unexpected stdout line"
        assert ord(match.group(1)) - 65 == game.current
        if match.group(2) is not None:
            text = f"purchase{match.group(2)}:{match.group(3)}"
        elif match.group(4) is not None:
            text = f"take{match.group(4)}"
        else:
            text = "wild"
        action = parse_action(text.encode())
        assert action is not None and game.is_valid(action)
        drawn = game.play(action)
        if drawn is not None:
            card = next(expected_cards)
            assert out.pop(0) == (f"New card = Bonus {'PBYR'[card.colour]}, worth {card.value}, "
                                  f"costs {','.join(map(str, card.cost))}")
    return game


def fuzz_game(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    count = rng.randint(2, 4)
    directory = tmp_path / f"game{seed}"
    directory.mkdir()
    programs = []
    for player in range(count):
        if rng.random() < 0.3:
            programs.append(PLAYERS[rng.choice(["shenzi", "banzai", "ed"])])
        else:
            programs.append(str(make_fake(directory, f"fuzz{player}", seed=seed,
                                          replies=["@fuzz"] * 400,
                                          eog=rng.choice(["exit:0", "exit:0", "exit:2"]),
                                          pidfile=str(directory / f"pid{player}"))))
    deck_name = rng.choice(["small.deck", "medium.deck", "cheap.deck"])
    tokens, points = rng.randint(0, 6), rng.randint(0, 12)
    result = hub(str(tokens), str(points), DECKS / deck_name, *programs, timeout=60)
    context = (seed, programs, result.stdout[-300:], result.stderr)
    assert result.returncode in ENDINGS, context
    # Every fake player was reaped before the hub exited.
    for pidfile in directory.glob("pid*"):
        assert not pid_alive(int(pidfile.read_text())), context
    out = result.stdout.decode().splitlines()
    game = replay(deck_name, tokens, points, count, out)
    err = result.stderr.decode().splitlines()
    message = ENDINGS[result.returncode]
    if message:
        assert err[-1] == message, context
        err = err[:-1]
    assert all(STATUS.match(line) for line in err), context
    if result.returncode == 0:
        assert game.finished, context
        letters = ",".join(chr(65 + p) for p in game.table.winners())
        assert out == [f"Winner(s) {letters}"], context
    elif result.returncode == 6:
        assert out == ["Game ended due to disconnect"], context
    else:
        assert out == [], context


def test_fuzzed_players_never_break_the_hub(tmp_path: Path) -> None:
    with ThreadPoolExecutor(max_workers=4) as pool:
        for future in [pool.submit(fuzz_game, tmp_path, seed) for seed in range(GAMES)]:
            future.result()
