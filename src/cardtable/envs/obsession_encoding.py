"""Obsession's observation as a fixed-length ``uint8`` vector, built from
``state.observation(seat)`` alone (docs/rl.md has the layout; :func:`feature_names` names every
entry).

Seats are relative to the observer: ``seat0`` is the observing seat, ``seat1`` the next one in
seat order (``P1``, ``P2``, ...), and so on, so one policy can play any seat. Cards are counted
by kind: 52 kinds ``FACE SUIT`` (face 2..14, the Ace high; suits C D H S) and the joker ``R``.
Counts above 255 are shown as 255.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from cardtable.games.obsession.cards import FACE, FACE_NAMES, ID_LIMIT, JOKER, SUITS

if TYPE_CHECKING:
    from cardtable.games.obsession.game import ObsessionGame
    from cardtable.games.obsession.observation import Observation

CAP = 255
KINDS = 53
TOP_SHOWN = 8
"""The faces of the discard pile's top cards shown in order (its whole count by face too)."""
PHASES = ("swap", "play", "over")
FACES = tuple(range(2, JOKER + 1))

_KIND = [0] * ID_LIMIT
for _card in range(ID_LIMIT):
    _KIND[_card] = KINDS - 1 if FACE[_card] == JOKER else _card >> 3
KIND_NAMES = [FACE_NAMES[face] + suit for face in range(2, 15) for suit in SUITS] + ["R"]


def _counts(cards: tuple[int, ...], size: int, index: list[int]) -> list[int]:
    counts = [0] * size
    for card in cards:
        counts[index[card]] += 1
    return counts


_FACE_SLOT = [max(FACE[card] - 2, 0) for card in range(ID_LIMIT)]


class ObsessionEncoder:
    """Encodes observations of games with one number of players."""

    def __init__(self, game: ObsessionGame) -> None:
        self.players = game.rules.players
        self.names = feature_names(self.players)
        self.size = len(self.names)
        self.low = np.zeros(self.size, dtype=np.uint8)
        self.high = np.array([self._high(name) for name in self.names], dtype=np.uint8)

    def _high(self, name: str) -> int:
        field = name.rsplit(".", 1)[-1] if name.startswith("seat") else name
        if field.startswith(("phase_", "my_turn", "reverse", "out")):
            return 1
        if field in ("to_move", "place"):
            return self.players
        if field.startswith(("top", "active_face")):
            return JOKER
        return CAP

    def encode(self, obs: Observation) -> np.ndarray:
        players = self.players
        me = obs.seat
        out = [1 if obs.phase == phase else 0 for phase in PHASES]
        to_move = obs.to_move
        out += (1 if to_move == me else 0,
                players if to_move is None else (to_move - me) % players,
                1 if obs.direction < 0 else 0,
                min(obs.draw_count, CAP), min(len(obs.discard), CAP), obs.active_face,
                min(obs.run, CAP), min(obs.play_number, CAP))
        counts = _counts(obs.hand, KINDS, _KIND)
        out += [count if count < CAP else CAP for count in counts]
        placings = obs.placings
        for offset in range(players):
            seat = (me + offset) % players
            out += _counts(obs.visible[seat], KINDS, _KIND)
            out += (min(obs.hand_counts[seat], CAP), obs.hidden_counts[seat],
                    1 if obs.out[seat] else 0,
                    placings.index(seat) + 1 if seat in placings else 0)
        discard = obs.discard
        top = [FACE[card] for card in discard[:TOP_SHOWN]]
        out += top + [0] * (TOP_SHOWN - len(top))
        for cards in (discard, obs.killed + obs.removed):
            counts = _counts(cards, len(FACES), _FACE_SLOT)
            out += [count if count < CAP else CAP for count in counts]
        return np.frombuffer(bytearray(out), dtype=np.uint8)

    def legal_mask(self, obs: Observation) -> None:
        """The state's own mask is used (``state.legal_mask()``)."""
        return None


def feature_names(players: int) -> list[str]:
    """The name of every entry of the vector, in order."""
    names = [f"phase_{phase}" for phase in PHASES]
    names += ["my_turn", "to_move", "reverse", "draw_count", "pile_size", "active_face", "run",
              "plays"]
    names += [f"hand.{kind}" for kind in KIND_NAMES]
    for offset in range(players):
        names += [f"seat{offset}.visible.{kind}" for kind in KIND_NAMES]
        names += [f"seat{offset}.{field}" for field in ("hand_count", "hidden_count", "out",
                                                        "place")]
    names += [f"top{position}" for position in range(1, TOP_SHOWN + 1)]
    names += [f"pile.{FACE_NAMES[face]}" for face in FACES]
    names += [f"gone.{FACE_NAMES[face]}" for face in FACES]
    return names
