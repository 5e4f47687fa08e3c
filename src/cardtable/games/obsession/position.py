"""Obsession positions: a whole game state as one line of text, and back.

The line is a list of fields separated by single spaces (python-chess's FEN is the model);
``docs/positions.md`` describes each field. Rules are not part of a position: they come from
the game, and the position carries a short fingerprint of them so that :func:`from_position`
refuses a position made under other rules. Obsession draws no random numbers after the deal,
so there is no generator state; the event log (the public history) of a restored game starts
at the position, and the deal a record header holds is not kept.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from cardtable.engine.errors import PositionError
from cardtable.games.obsession.cards import (
    FACE,
    FACE_OF_NAME,
    JOKER,
    MAX_DECKS,
    SUITS,
    canonical_deck,
    joker,
    suited,
)
from cardtable.games.obsession.legality import NONE
from cardtable.games.obsession.phases import OVER, PHASE_NAMES, SWAP
from cardtable.games.obsession.position_writer import (
    EMPTY,
    FIELDS,
    FORMAT,
    card_text,
    rules_fingerprint,
    to_position,
)
from cardtable.games.obsession.rules import Rules
from cardtable.games.obsession.seats import seat_name
from cardtable.games.obsession.state import ObsessionState

# Positions are written by ``position_writer`` (which the state uses) and read here; both
# halves are known under this module's name.
__all__ = ["EMPTY", "FIELDS", "FORMAT", "MAX_COUNT_DIGITS", "card_text", "from_position",
           "parse_card", "rules_fingerprint", "to_position"]

_STALEMATES = ("cap", "repetition")
MAX_COUNT_DIGITS = 12


# ------------------------------------------------------------------------- reading


_fail = PositionError.in_field
_shown = PositionError.quoted


def parse_card(text: str) -> int | None:
    """The card written ``text`` (see :func:`card_text`); None if it is not one."""
    head, at, rest = text.partition("@")
    if at:
        deck_text, dot, copy_text = rest.partition(".")
    else:
        head, dot, copy_text = head.partition(".")
        deck_text = "1"
    if deck_text not in [str(deck) for deck in range(1, MAX_DECKS + 1)]:
        return None
    if at and deck_text == "1":  # one way to write each card: the first deck goes unsaid
        return None
    deck = int(deck_text) - 1
    if head == "R":
        if dot and copy_text != "2":
            return None
        return joker(deck, 1 if dot else 0)
    if dot or len(head) < 2 or head[-1] not in SUITS:
        return None
    face = FACE_OF_NAME.get(head[:-1])
    if face is None or face == JOKER:
        return None
    return suited(face, SUITS.index(head[-1]), deck)


def _number(field: str, text: str) -> int:
    if (not text.isascii() or not text.isdigit() or len(text) > MAX_COUNT_DIGITS
            or (text != "0" and text.startswith("0"))):
        raise _fail(field, f"expected a count, got {_shown(text)}")
    return int(text)


def _card_list(field: str, text: str) -> list[int]:
    if text == EMPTY:
        return []
    cards = []
    for item in text.split(","):
        card = parse_card(item)
        if card is None:
            raise _fail(field, f"unknown card {_shown(item)}")
        cards.append(card)
    return cards


def _rows_of(field: str, text: str, players: int, in_order: bool) -> list[list[int]]:
    parts = text.split("/")
    if len(parts) != players:
        raise _fail(field, f"expected {players} seats separated by /, got {len(parts)}")
    rows = []
    for seat, part in enumerate(parts):
        cards = _card_list(field, part)
        if in_order and cards != sorted(cards):
            raise _fail(field, f"{seat_name(seat)}'s cards are not in display order")
        rows.append(cards)
    return rows


def _seat_list(field: str, text: str, players: int) -> list[int]:
    if not text:
        return []
    seats = []
    for item in text.split(","):
        if item not in [str(seat) for seat in range(1, players + 1)]:
            raise _fail(field, f"no seat {_shown(item)} in a {players}-player game")
        if int(item) - 1 in seats:
            raise _fail(field, f"seat {item} is named twice")
        seats.append(int(item) - 1)
    return seats


_HEX = "0123456789abcdef"


def _seen_of(text: str, players: int) -> dict[tuple[object, ...], int]:
    seen: dict[tuple[object, ...], int] = {}
    if text == EMPTY:
        return seen
    for entry in text.split(","):
        head, eq, count_text = entry.partition("=")
        cut = min((i for i in (head.find("+"), head.find("-")) if i >= 0), default=len(head))
        seat_text, rest = head[:cut], head[cut:]
        if (not eq or seat_text not in [str(seat) for seat in range(1, players + 1)]
                or not rest or rest[0] not in "+-"
                or any(char not in _HEX + ":" for char in rest[1:])):
            raise _fail("seen", f"expected SEAT+FACES:...=COUNT, got {_shown(entry)}")
        count = _number("seen", count_text)
        if count < 1:
            raise _fail("seen", f"a count of 0 in {_shown(entry)}")
        pile, *parts = (bytes(int(char, 16) for char in part) for part in rest[1:].split(":"))
        key: tuple[object, ...] = (int(seat_text) - 1, 1 if rest[0] == "+" else -1, pile, *parts)
        if key in seen:
            raise _fail("seen", f"a position is counted twice: {_shown(entry)}")
        seen[key] = count
    return seen


def from_position(rules: Rules, text: str, *, log: bool = True) -> ObsessionState:
    """The game state that ``text`` describes under ``rules``; raises :class:`PositionError`
    naming the field at fault when the text is not a position of a game under these rules.

    ``log`` is as for :class:`ObsessionState`; a restored game's event log starts at the position.
    """
    fields = text.split(" ")
    if len(fields) != len(FIELDS):
        raise PositionError(f"expected {len(FIELDS)} fields, got {len(fields)}")
    value = dict(zip(FIELDS, fields, strict=True))
    n = rules.players
    if value["game"] != FORMAT:
        raise _fail("game", f"expected {FORMAT}, got {_shown(value['game'])}")
    if value["rules"] != rules_fingerprint(rules):
        raise _fail("rules", "the position was made under other rules than this game's "
                    f"({_shown(value['rules'])} is not {rules_fingerprint(rules)})")
    if value["phase"] not in PHASE_NAMES:
        raise _fail("phase", f"expected swap, play or over, got {_shown(value['phase'])}")
    phase = PHASE_NAMES.index(value["phase"])
    current = _seat_list("to move", value["to move"].removeprefix("P"), n)
    if len(current) != 1 or not value["to move"].startswith("P"):
        raise _fail("to move", f"expected a seat P1 to P{n}, got {_shown(value['to move'])}")
    if value["direction"] not in ("+", "-"):
        raise _fail("direction", f"expected + or -, got {_shown(value['direction'])}")
    hands = _rows_of("hands", value["hands"], n, True)
    visible = _rows_of("visible", value["visible"], n, True)
    hidden = _rows_of("hidden", value["hidden"], n, False)
    draw = _card_list("draw", value["draw"])[::-1]
    pile = _card_list("pile", value["pile"])
    killed = _card_list("killed", value["killed"])
    removed = _card_list("removed", value["removed"])
    placings_text = value["placings"]
    if placings_text == EMPTY:
        went_out: list[int] = []
        placed: list[int] = []
    else:
        out_text, slash, placed_text = placings_text.partition("/")
        if not slash:
            raise _fail("placings", f"expected OUT/PLACED, got {_shown(placings_text)}")
        went_out = _seat_list("placings", out_text, n)
        placed = _seat_list("placings", placed_text, n)
        if set(went_out) & set(placed) or not (went_out or placed):
            raise _fail("placings", f"a seat is placed twice in {_shown(placings_text)}")
    plays = _number("plays", value["plays"])
    turns = _number("turns", value["turns"])
    stalemate = value["stalemate"]
    if stalemate != EMPTY and stalemate not in _STALEMATES:
        raise _fail("stalemate", f"expected -, cap or repetition, got {_shown(stalemate)}")
    humans_text = value["humans"]
    if not humans_text:  # one writing of each state: no humans is "-"
        raise _fail("humans", "expected seat numbers like 1,3 or -, got an empty field")
    humans = set(_seat_list("humans", "" if humans_text == EMPTY else humans_text, n))
    seen = _seen_of(value["seen"], n)
    _check_cards(rules, (*hands, *visible, *hidden, draw, pile, killed, removed))
    _check_story(phase, stalemate, went_out, placed, n, hands, visible, hidden)
    _check_zones(phase, plays, pile, killed, removed, hidden)
    if phase != OVER and current[0] in went_out:
        raise _fail("to move", f"{seat_name(current[0])} is out and cannot be to move")

    game = ObsessionState.__new__(ObsessionState)
    game.rules = rules
    game.players = n
    game.deck = ()
    game.humans = tuple(seat in humans for seat in range(n))
    game._run_kill = rules.run_kill
    game._kill_first = rules.kill_order == "kill-first"
    game._max_plays = rules.max_plays
    game._repeat_limit = rules.repeat_limit
    game.hands = hands
    game.visible = visible
    game.hidden = hidden
    # A position does not tell which cards of a hand every seat saw go there.
    game.known = [[] for _ in range(n)]
    # Nor what the seats' choices showed: nothing is inferred, every seat is modelled.
    game._lacks = [[] for _ in range(n)]
    game._modelled = [True] * n
    game.draw = draw
    game.pile = pile
    game._pile_faces = bytearray(FACE[card] for card in pile)
    faces = [FACE[card] for card in pile]
    plain = [face for face in faces if face != JOKER]
    game.active = plain[-1] if plain else NONE
    game.top_face = faces[-1] if faces else 0
    run = 0
    for face in reversed(faces):
        if face != game.top_face:
            break
        run += 1
    game.run = run
    game.direction = 1 if value["direction"] == "+" else -1
    game.phase = phase
    game.current = current[0]
    game.out = [seat in went_out for seat in range(n)]
    game.remaining = n - len(went_out)
    game.placings = went_out + placed
    game.plays = plays
    game.turns = turns
    game.removed = removed
    game.killed = killed
    game.stalemate = None if stalemate == EMPTY else stalemate
    game._humans_left = sum(1 for seat in humans if seat not in went_out)
    game._seen = seen
    game._parts = [None] * n
    game._events = [] if log else None
    game._public = [] if log else None
    if phase != OVER and not game.legal_actions():
        raise PositionError(f"the game is not over, but {seat_name(game.current)} has no "
                            "legal move")
    return game


def _check_cards(rules: Rules, zones: Sequence[Sequence[int]]) -> None:
    """Every card of the game's decks is in exactly one place."""
    counts = Counter(card for zone in zones for card in zone)
    expected = canonical_deck(rules.decks)
    twice = [card for card, count in counts.items() if count > 1]
    if twice:
        raise PositionError(f"cards do not add up: {card_text(twice[0])} is in two places")
    extra = counts.keys() - set(expected)
    if extra:
        raise PositionError(f"cards do not add up: {card_text(min(extra))} is not in a "
                            f"{rules.decks}-deck game")
    missing = [card for card in expected if card not in counts]
    if missing:
        raise PositionError(f"cards do not add up: {card_text(missing[0])} is missing"
                            + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""))


def _check_story(phase: int, stalemate: str, went_out: list[int], placed: list[int], n: int,
                 hands: list[list[int]], visible: list[list[int]], hidden: list[list[int]],
                 ) -> None:
    """The placings, the end and who holds cards tell one story."""
    over = phase == OVER
    if over != (len(went_out) + len(placed) == n):
        raise _fail("placings", "every seat is placed exactly when the game is over")
    if placed and not over:
        raise _fail("placings", "seats are placed without going out before the game is over")
    if stalemate != EMPTY and not over:
        raise _fail("stalemate", "a stalemate ends the game, but the phase is not over")
    if over and stalemate == EMPTY and len(went_out) != n - 1:
        raise _fail("placings", "a game over without a stalemate has all seats but one out")
    for seat in went_out:
        if hands[seat] or visible[seat] or hidden[seat]:
            raise _fail("placings", f"{seat_name(seat)} is out but holds cards")
    if phase == SWAP and (went_out or any(len(row) != 3 for row in (*hands, *visible))):
        raise _fail("phase", "at the swap every seat holds 3 hand and 3 visible cards")


def _check_zones(phase: int, plays: int, pile: list[int], killed: list[int],
                 removed: list[int], hidden: list[list[int]]) -> None:
    """What play puts in the zones: only 3s are removed (at pick-ups), a 10 never stays on
    the pile, and before the first play nothing has left the hands and rows."""
    not_three = [card for card in removed if FACE[card] != 3]
    if not_three:
        raise _fail("removed", f"{card_text(not_three[0])} is not a 3: only 3s are removed")
    ten = next((card for card in pile if FACE[card] == 10), None)
    if ten is not None:
        raise _fail("pile", f"{card_text(ten)} is on the pile, but a 10 kills the pile")
    if phase == SWAP and (pile or killed or removed or plays
                          or any(len(row) != 3 for row in hidden)):
        raise _fail("phase", "at the swap nothing has been played and every seat holds 3 "
                    "hidden cards")
