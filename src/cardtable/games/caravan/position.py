"""Caravan positions: a whole game state as one line of text, and back.

The line is a list of fields separated by single spaces (python-chess's FEN is the model);
``docs/positions.md`` describes each field and shows an example.

Rules are not part of a position: they come from the game. The position carries a short
fingerprint of them instead, and :func:`from_position` refuses a position made under other
rules. What a position leaves out is what playing on never reads: the public history
(a restored game's history starts at the position) and the setup a record header describes
(the initial decks and mulligans).
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import unquote

from cardtable.engine.errors import PositionError
from cardtable.engine.randomness import GameRandom
from cardtable.games.caravan.board import CARAVAN_NAMES, Caravan, most_faces, summarize
from cardtable.games.caravan.cards import (
    JOKER,
    NO_SUIT,
    RANK_MASK,
    SEATS,
    make,
    owner_of,
    parse_code,
)
from cardtable.games.caravan.history import History
from cardtable.games.caravan.legality import has_legal_move
from cardtable.games.caravan.position_writer import (
    EMPTY,
    FIELDS,
    FORMAT,
    HELD_TEXT,
    NO_RANDOM,
    RUNNING,
    card_counts,
    card_text,
    rules_fingerprint,
    to_position,
)
from cardtable.games.caravan.rules import SeatRules
from cardtable.games.caravan.state import CaravanState

# Positions are written by ``position_writer`` (which the state uses) and read here; both
# halves are known under this module's name.
__all__ = ["EMPTY", "FIELDS", "FORMAT", "MAX_SEED_DIGITS", "NO_RANDOM", "RUNNING", "card_text",
           "from_position", "parse_card", "rules_fingerprint", "to_position"]

MAX_SEED_DIGITS = 40

_HELD_OF_TEXT = {text: held for held, text in HELD_TEXT.items()}
_REASONS = ("lanes", "out_of_cards", "no_legal_move", "draw", "quit")


# ------------------------------------------------------------------------- reading


_fail = PositionError.in_field
_shown = PositionError.quoted


def parse_card(text: str, owner: int) -> int | None:
    """The card written ``text`` (see :func:`card_text`) owned by ``owner``; None if malformed."""
    head, at, rest = text.partition("@")
    if at:
        sample_text, dot, copy_text = rest.partition(".")
    else:
        head, dot, copy_text = head.partition(".")
        sample_text = "1"
    parsed = parse_code(head) if head == head.strip().upper() else None
    if parsed is None or not _number(sample_text) or int(sample_text) < 1:
        return None
    if at and sample_text == "1":  # one way to write each card: sample 1 goes unsaid
        return None
    rank, suit = parsed
    copy = 1
    if dot:
        if rank != JOKER or copy_text != "2":
            return None
        copy = 2
    if rank == JOKER:
        suit = NO_SUIT
    return make(rank, suit, owner, int(sample_text), copy)


def _number(text: str) -> bool:
    return (text.isascii() and text.isdigit() and len(text) <= MAX_SEED_DIGITS
            and (text == "0" or not text.startswith("0")))


def _card_list(field: str, text: str, owner: int) -> list[int]:
    if text == EMPTY:
        return []
    cards = []
    for item in text.split(","):
        card = parse_card(item, owner)
        if card is None:
            raise _fail(field, f"unknown card {_shown(item)}")
        cards.append(card)
    return cards


def _caravan_of(field: str, text: str, owner: int) -> Caravan:
    if text == EMPTY:
        return ()
    slots = []
    for slot_text in text.split(","):
        cards = []
        for item in slot_text.split("+"):
            mine = not item.startswith("~")
            card = parse_card(item if mine else item[1:], owner if mine else 1 - owner)
            if card is None:
                raise _fail(field, f"unknown card {_shown(item)}")
            cards.append(card)
        if cards[0] & RANK_MASK > 10:
            raise _fail(field, f"a slot starts with {_shown(slot_text)}, not a numeral")
        if any(card & RANK_MASK <= 10 for card in cards[1:]):
            raise _fail(field, f"a numeral is attached as a face in {_shown(slot_text)}")
        slots.append((cards[0], tuple(cards[1:])))
    return tuple(slots)


def _pair(field: str, text: str, top: int | None = None) -> tuple[int, int]:
    parts = text.split(",")
    if len(parts) != 2 or not all(_number(part) for part in parts):
        raise _fail(field, f"expected two counts like 3,2, got {_shown(text)}")
    first, second = int(parts[0]), int(parts[1])
    if top is not None and (first > top or second > top):
        raise _fail(field, f"a count above {top} in {_shown(text)}")
    return first, second


def _seat(field: str, text: str) -> int:
    if text not in SEATS:
        raise _fail(field, f"expected ABC or DEF, got {_shown(text)}")
    return SEATS.index(text)


def _result_of(text: str) -> tuple[tuple[str, ...], str, str | None] | None:
    if text == RUNNING:
        return None
    head, slash, cause = text.partition("/")
    reason, eq, winners_text = head.partition("=")
    winners = tuple(winners_text.split("+")) if eq else ()
    if (reason not in _REASONS or any(w not in SEATS for w in winners) or len(winners) > 1
            or (slash and (reason != "quit" or not cause))
            or (reason in ("draw", "quit")) == bool(winners)):
        raise _fail("result", f"expected * or how the game ended, got {_shown(text)}")
    return winners, reason, unquote(cause) if slash else None


def from_position(rules: SeatRules, text: str) -> CaravanState:
    """The game state that ``text`` describes under ``rules``; raises :class:`PositionError`
    naming the field at fault when the text is not a position of a game under these rules."""
    fields = text.split(" ")
    if len(fields) != len(FIELDS):
        raise PositionError(f"expected {len(FIELDS)} fields, got {len(fields)}")
    value = dict(zip(FIELDS, fields, strict=True))
    if value["game"] != FORMAT:
        raise _fail("game", f"expected {FORMAT}, got {_shown(value['game'])}")
    if value["rules"] != rules_fingerprint(rules):
        raise _fail("rules", "the position was made under other rules than this game's "
                    f"({_shown(value['rules'])} is not {rules_fingerprint(rules)})")
    turn = _seat("to move", value["to move"])
    decks, hands, piles = [], [], []
    for seat, name in enumerate(SEATS):
        deck = _card_list(f"deck {name}", value[f"deck {name}"], seat)
        decks.append(deck[::-1])
        hands.append(_card_list(f"hand {name}", value[f"hand {name}"], seat))
        piles.append(_card_list(f"pile {name}", value[f"pile {name}"], seat))
    caravans = [_caravan_of(f"caravan {name}", value[f"caravan {name}"], index // 3)
                for index, name in enumerate(CARAVAN_NAMES)]
    held_text = value["held"]
    if len(held_text) != 6 or any(mark not in _HELD_OF_TEXT for mark in held_text):
        raise _fail("held", f"expected six of - n a d, got {_shown(held_text)}")
    counts = _pair("cards", value["cards"])
    placed = _pair("placed", value["placed"], 3)
    moves = _pair("moves", value["moves"])
    if not _number(value["plies"]):
        raise _fail("plies", f"expected a count, got {_shown(value['plies'])}")
    joker_text = value["jack as joker"]
    if len(joker_text) != 2 or any(flag not in "yn" for flag in joker_text):
        raise _fail("jack as joker", f"expected two of y n, got {_shown(joker_text)}")
    first = _seat("first", value["first"])
    seed_text = value["seed"]
    negative = seed_text.startswith("-")
    if not _number(seed_text[1:] if negative else seed_text):
        raise _fail("seed", f"expected a whole number, got {_shown(seed_text)}")
    seed = int(seed_text)
    rng: GameRandom | None = None
    if value["random"] != NO_RANDOM:
        try:
            rng = GameRandom.from_state_text(seed, value["random"])
        except ValueError as error:
            raise _fail("random", str(error)) from None
    ended = _result_of(value["result"])
    _check_cards(decks, hands, piles, caravans)
    held_counts = card_counts(decks, hands, piles, caravans)
    for seat in (0, 1):
        if held_counts[seat] != counts[seat]:
            raise PositionError(f"cards do not add up: {SEATS[seat]} has {held_counts[seat]} "
                                f"cards, the position says {counts[seat]}")

    game = CaravanState.__new__(CaravanState)
    game._moves = None
    game.seat_rules = rules
    game.rules = rules.as_tuple()
    game.seed = seed
    game.first = first
    game.turn = turn
    game.rng = rng if rng is not None else GameRandom(seed)
    game.caravans = caravans
    game.held = [_HELD_OF_TEXT[mark] for mark in held_text]
    game.summaries = [summarize(caravans[i], game.held[i], game.rules[i // 3]) for i in range(6)]
    game.crowding = [most_faces(caravan) for caravan in caravans]
    game.decks = decks
    game.hands = hands
    game.piles = piles
    game.placed = list(placed)
    game.moves_made = list(moves)
    game.plies = int(value["plies"])
    game.jack_as_joker = (joker_text[0] == "y", joker_text[1] == "y")
    game.initial_decks = ((), ())
    game.mulligans = ()
    game._history = History(())
    game.result = None
    _check_reachable(game, ended is None)
    if ended is not None:
        winners, reason, cause = ended
        if reason == "quit":
            game.abandon(cause if cause is not None else "quit")
        else:
            game._finish(winners, reason)
    return game


def _check_cards(decks: Sequence[list[int]], hands: Sequence[list[int]],
                 piles: Sequence[list[int]], caravans: Sequence[Caravan]) -> None:
    """Every card is in one place only (cards are told apart by owner, sample and copy)."""
    seen: set[int] = set()
    for cards in (*decks, *hands, *piles,
                  *[(numeral, *faces) for caravan in caravans for numeral, faces in caravan]):
        for card in cards:
            if card in seen:
                owner = SEATS[owner_of(card)]
                raise PositionError(f"cards do not add up: {owner}'s {card_text(card)} "
                                    "is in two places")
            seen.add(card)


def _movers(first: int, plies: int, simultaneous: bool) -> tuple[int, int, int]:
    """How many moves each seat has made after ``plies``, and the seat to move next: turns
    alternate, except that in a simultaneous Start round the first seat places its three
    opening cards in a row, then the other seat does."""
    made = [0, 0]
    turn = first
    for ply in range(plies):
        made[turn] += 1
        if not (simultaneous and ply in (0, 1, 3, 4)):
            turn = 1 - turn
    return made[0], made[1], turn


def _check_reachable(game: CaravanState, running: bool) -> None:
    """What play implies of the counters and of each seat still in its Start round, and, for
    a game not over, that the seat to move has a move: a position must be one the game can
    reach, whose continuation the rules define."""
    rules = game.seat_rules
    mode = rules.abc.opening_mode
    if game.plies != sum(game.moves_made):
        raise _fail("plies", f"{game.plies} moves in all, but the seats have made "
                    f"{game.moves_made[0]} and {game.moves_made[1]}")
    if running:
        abc, def_, turn = _movers(game.first, game.plies, mode == "simultaneous")
        if (abc, def_) != tuple(game.moves_made):
            raise _fail("moves", f"after {game.plies} moves with {SEATS[game.first]} first, "
                        f"the seats have made {abc},{def_}")
        if turn != game.turn:
            raise _fail("to move", f"after {game.plies} moves with {SEATS[game.first]} first, "
                        f"{SEATS[turn]} is to move")
    for seat, name in enumerate(SEATS):
        placed = game.placed[seat]
        seat_rules = rules.of(seat)
        if mode == "none" and placed:
            raise _fail("placed", "numerals are counted as placed in a Start round, but these "
                        "rules have none")
        if placed > game.moves_made[seat]:
            raise _fail("placed", f"{name} has placed more numerals than it has made moves")
        if placed == 3 or mode == "none":
            continue
        own = [slot for caravan in game.caravans[3 * seat:3 * seat + 3] for slot in caravan]
        left = seat_rules.opening_hand - placed
        if len(own) > placed or any(len(caravan) > 1
                                    for caravan in game.caravans[3 * seat:3 * seat + 3]):
            raise _fail("placed", f"{name}'s caravans hold more than the {placed} numerals it "
                        "has placed in its Start round")
        if len(game.hands[seat]) > left:
            raise _fail(f"hand {name}", f"{name} holds more than the {left} cards left of its "
                        "opening hand")
        if seat_rules.mulligan == "discard" and mode == "alternate":
            continue  # discarding (and drawing) numerals in the Start round is allowed
        if (game.piles[seat] or len(game.hands[seat]) != left or len(own) != placed
                or game.moves_made[seat] != placed
                or any(faces or owner_of(numeral) != seat for numeral, faces in own)):
            raise _fail(f"hand {name}", f"in its Start round {name} has placed {placed} "
                        f"numerals on its caravans from its opening hand, which holds the "
                        f"{left} others, and discarded nothing")
    if running and not has_legal_move(game.table()):
        raise PositionError(f"the game is not over, but {SEATS[game.turn]} has no legal move")
