"""What happened and why, in words: derived from the legality table, never written per face.

Every shell (line mode, full screen) says the same things with these functions: what may be
played on the active face, why a play was refused, who goes out in which place, who plays again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cardtable.games.obsession.actions import Action, Blind, Play, Swap
from cardtable.games.obsession.cards import FACE, FACE_NAMES, JOKER, PLAIN_FACES, SPECIAL_FACES
from cardtable.games.obsession.events import Ended, PickedUp, Played, WentOut
from cardtable.games.obsession.legality import ALL_LEGAL, LEGAL, NONE, matrix_rows
from cardtable.games.obsession.observation import Observation
from cardtable.games.obsession.selection import INVALID_SELECTION

CLIMB = tuple(sorted(PLAIN_FACES))
"""The plain faces in climbing order: 4 5 6 9 J Q K A."""
SPECIALS = tuple(sorted(SPECIAL_FACES))

MIXED_FACES = "cards played together must share one face"

ANYTHING_FACES = tuple(name for name, row in matrix_rows().items()
                      if name != "none" and all(row.values()))
"""The active faces that let anything follow (2, 4 and 8; a 10 never stays on the pile)."""


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` … ``11th`` … ``21st``."""
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def face_with_article(face: int) -> str:
    """``a 9``, ``an 8``, ``an A``, ``an R``."""
    name = FACE_NAMES[face]
    return ("an " if name in ("8", "A", "R") else "a ") + name


def words(items: Sequence[str]) -> str:
    """``2, 3, 7 or R``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def allowed(active: int) -> str:
    """What may be played on ``active`` (0: no active face), read from the legality table:
    ``anything``, ``3 or R``, ``a 9 or higher, or 2, 3, 7, 8, 10 or R``."""
    row = LEGAL[active]
    if ALL_LEGAL[active]:
        return "anything"
    plain = [face for face in CLIMB if row[face]]
    special = [face for face in SPECIALS if row[face]]
    climbs = bool(plain) and plain == list(CLIMB[CLIMB.index(plain[0]):])
    if not climbs:
        return words([FACE_NAMES[face] for face in sorted(plain + special)])
    high = face_with_article(plain[0]) + (" or higher" if len(plain) > 1 else "")
    if not special:
        return high
    return f"{high}, or {words([FACE_NAMES[face] for face in special])}"


def next_play(active: int, top: int | None) -> str:
    """The status line's answer to "what may I play now?" for the pile's active face and its
    top card (None for an empty pile)."""
    if top is None:
        return "Next: anything (empty pile)"
    if active == NONE:
        return "Only jokers: play anything"
    under = f" (the {FACE_NAMES[active]} under the joker)" if FACE[top] == JOKER else ""
    return f"Next: {allowed(active)}{under}"


def refusal(active: int, faces: Sequence[int], top_is_joker: bool = False) -> str:
    """Why a play of ``faces`` (one per card) on ``active`` is refused, as one line that
    starts with the grammar's ``Invalid selection``."""
    if len(set(faces)) > 1:
        return f"{INVALID_SELECTION}: {MIXED_FACES}"
    face = faces[0]
    under = " under the joker" if top_is_joker else ""
    return (f"{INVALID_SELECTION}: {face_with_article(face)} cannot be played on "
            f"{face_with_article(active)}{under}; play {allowed(active)}")


def explain_refusal(message: str, observation: Observation, action: Action) -> str:
    """``message`` of a refused ``action``, made specific where the game said only
    ``Invalid selection`` about a play from the seat's active pile."""
    if message != INVALID_SELECTION or not isinstance(action, Play) or not action.cards:
        return message
    if any(card not in observation.pool for card in action.cards):
        return message
    faces = [FACE[card] for card in action.cards]
    if len(set(faces)) == 1 and LEGAL[observation.active_face][faces[0]]:
        return message
    top_is_joker = bool(observation.discard) and FACE[observation.discard[0]] == JOKER
    return refusal(observation.active_face, faces, top_is_joker)


def went_out(event: WentOut) -> str:
    """``Player 2 goes out in 2nd place.``; the first out wins."""
    line = f"Player {event.seat + 1} goes out in {ordinal(event.place)} place"
    return line + (" and wins!" if event.place == 1 else ".")


def last_left(event: Ended) -> str | None:
    """``Player 4 is the last one left and loses (4th place).`` (None after a stalemate)."""
    if event.stalemate or not event.placings:
        return None
    seat = event.placings[-1]
    return (f"Player {seat + 1} is the last one left and loses "
            f"({ordinal(len(event.placings))} place).")


THREES_RULE = "the 3s of a picked-up pile leave the game"
"""Said by the help: a pile of 3s alone gives nothing to pick up."""


def picked_up(event: PickedUp) -> str:
    """``No valid moves, picked up 2 cards``, and when the pile held 3s, that they left the
    game (else ``picked up 0 cards`` after a lone 3 reads like a mistake)."""
    count = f"{event.count} card" + ("" if event.count == 1 else "s")
    line = f"No valid moves, picked up {count}"
    if event.threes_removed == 1:
        return line + " (the 3 on the pile left the game)"
    if event.threes_removed > 1:
        return line + f" ({event.threes_removed} threes on the pile left the game)"
    return line


def plays_again(event: Played) -> str | None:
    """``Player 2 plays again after the 8.`` when the play earned an extra turn."""
    if "extra" not in event.effects:
        return None
    reason = "killing the pile" if "kill" in event.effects else "the 8"
    return f"Player {event.seat + 1} plays again after {reason}."


def selection_numbers(observation: Observation, action: Action) -> str:
    """The numbers a person types for ``action`` (positions in the shown pile), e.g. ``2 3``."""
    if isinstance(action, Blind):
        return str(action.index)
    cards = action.visible if isinstance(action, Swap) else action.cards
    pool = list(observation.pool)
    numbers = []
    for card in cards:
        index = pool.index(card)
        pool[index] = -1
        numbers.append(str(index + 1))
    return " ".join(numbers)


def legal_moves(observation: Observation, legal: Sequence[Action],
                card_text: Callable[[int], str], separator: str = ", ") -> str:
    """The legal moves of the seat to move, listed in the selection notation with the cards
    they name: ``1 (4C), 2 (9H), 2 3 (9H 9S)``. ``legal`` is the game's legal list."""
    if not legal:
        return "no moves (the game is over)"
    if isinstance(legal[0], Swap):
        size = len(observation.pool)
        return (f"any 3 different numbers from 1 to {size} ({len(legal)} moves), "
                f"e.g. {selection_numbers(observation, legal[0])}")
    if isinstance(legal[0], Blind):
        return f"one hidden card, 1 to {len(legal)} (face down: any may be tried)"
    items = []
    for action in legal:
        assert isinstance(action, Play)
        numbers = selection_numbers(observation, action)
        shown = " ".join(card_text(card) for card in action.cards)
        items.append(([int(n) for n in numbers.split()], f"{numbers} ({shown})"))
    items.sort()
    return separator.join(text for _, text in items)
