"""The Rules object: every rule variant is a field, every preset an instance."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Literal

QueenPlacement = Literal["last", "any"]
KingMode = Literal["double", "add"]
JokerAceMode = Literal["suit", "rank"]
JokerAceSuitTest = Literal["printed", "effective"]
EqualRankDirection = Literal["desc", "keep_previous", "any"]
ClearPolicy = Literal["clear", "destroy_restart", "disabled"]
OpeningMode = Literal["alternate", "simultaneous", "none"]
Mulligan = Literal["rebuild", "reshuffle", "discard", "none"]
DrawMode = Literal["one", "refill"]
DeckExhaustion = Literal["shrink", "reshuffle_discards"]
OutOfCards = Literal["after_lanes", "before_lanes"]
Sampling = Literal["balanced", "imbalanced", "pooled"]


@dataclass(frozen=True, slots=True)
class Rules:
    """One seat's rules. Field order is the order of the specification's table."""

    max_numerals: int | None = 8
    max_faces: int | None = 3
    jack_respects_face_cap: bool = False
    queen_placement: QueenPlacement = "last"
    queen_changes_suit: bool = True
    queen_changes_direction: bool = True
    king_mode: KingMode = "double"
    joker_target_survives: bool = True
    joker_ace_mode: JokerAceMode = "suit"
    joker_ace_suit_test: JokerAceSuitTest = "printed"
    jack_is_joker_without_jokers: bool = False
    equal_rank_direction: EqualRankDirection = "desc"
    faces_on_opponent: bool = True
    face_must_match_suit: bool = False
    clear_policy: ClearPolicy = "clear"
    sold_min: int = 21
    sold_max: int = 26
    require_all_caravans: bool = False
    opening_mode: OpeningMode = "alternate"
    mulligan: Mulligan = "rebuild"
    hand_size: int = 5
    opening_hand_size: int | None = None
    draw_mode: DrawMode = "one"
    deck_exhaustion: DeckExhaustion = "shrink"
    out_of_cards: OutOfCards = "after_lanes"
    deck_size: int | None = 54
    deck_min: int = 30
    deck_max: int = 162
    samples: int | None = 1
    samples_min: int = 1
    samples_max: int = 3
    sampling: Sampling = "balanced"
    jokers_per_sample: int = 2

    @property
    def opening_hand(self) -> int:
        """Cards dealt at the start: ``opening_hand_size``, else ``hand_size`` + 3."""
        return self.opening_hand_size if self.opening_hand_size is not None else self.hand_size + 3

    @property
    def largest_hand(self) -> int:
        """The most cards this seat can ever hold; bounds hand positions in the notation."""
        return max(self.opening_hand, self.hand_size)


FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Rules))

GLOBAL_FIELDS = ("opening_mode", "out_of_cards")
"""Fields both seats must share."""

POWER = Rules()
NV = Rules(
    max_numerals=None,
    jack_respects_face_cap=True,
    equal_rank_direction="keep_previous",
    mulligan="reshuffle",
    deck_max=216,
    samples_max=4,
)
FOXON = Rules(
    max_numerals=None,
    max_faces=None,
    jack_respects_face_cap=True,
    queen_changes_suit=False,
    king_mode="add",
    joker_target_survives=False,
    joker_ace_mode="rank",
    jack_is_joker_without_jokers=True,
    equal_rank_direction="keep_previous",
    faces_on_opponent=False,
    clear_policy="destroy_restart",
    opening_mode="simultaneous",
    mulligan="reshuffle",
    draw_mode="refill",
    deck_exhaustion="reshuffle_discards",
)
KARAVANE = Rules(
    max_numerals=20,
    jack_respects_face_cap=True,
    queen_placement="any",
    joker_ace_suit_test="effective",
    equal_rank_direction="any",
    opening_mode="none",
    mulligan="none",
    draw_mode="refill",
    out_of_cards="before_lanes",
    deck_size=None,
    deck_max=108,
    samples=None,
    samples_max=2,
    sampling="pooled",
)

PRESETS: dict[str, Rules] = {"power": POWER, "nv": NV, "foxon": FOXON, "karavane": KARAVANE}
DEFAULT_PRESET = "power"


@dataclass(frozen=True, slots=True)
class SeatRules:
    """The rules of both seats; under a preset they are equal.

    ``stuck_plies`` is a rule of the whole table: the game stops (abandoned, cause
    ``stalemate``) once no caravan has changed for that many moves in a row; None never
    stops it (see :mod:`cardtable.games.caravan.stalemate`). It limits how long a game may run
    rather than how it is played, so it is left out of the rules a record or a position's
    fingerprint shows.
    """

    abc: Rules
    def_: Rules
    stuck_plies: int | None = field(default=None, repr=False)

    @classmethod
    def both(cls, rules: Rules) -> SeatRules:
        return cls(rules, rules)

    @classmethod
    def preset(cls, name: str) -> SeatRules:
        return cls.both(PRESETS[name])

    def of(self, seat: int) -> Rules:
        """Rules of seat 0 (ABC) or 1 (DEF)."""
        return self.abc if seat == 0 else self.def_

    def as_tuple(self) -> tuple[Rules, Rules]:
        return (self.abc, self.def_)
