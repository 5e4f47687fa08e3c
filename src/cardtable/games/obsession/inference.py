"""What the other seats' choices tell about their hands: faces a hand lacks.

Every seat sees every play, pick-up and swap, so every seat can reason alike about what the
hand of the seat that made it did not hold. Two kinds of facts come out:

- rules (true whatever plays the seat): a seat with cards in hand that picks up the pile held
  no card legal on the active face; the seat that opens holds the first face of the opening
  order any hand holds, so no hand held an earlier face, no seat before it held that face,
  and it played all its copies.
- the ``obsessed`` policy (true while the seat plays like it): its swap puts the three
  dearest cards face up, so the hand keeps none dearer than the cheapest of them; it plays
  the cheapest legal face it holds (by ``bots.WEIGHTS``, the same weights it changes from
  what the table shows; it plays a dearer one now and then, and nothing here can tell, so
  a sampled world that trusts this is sometimes wrong); it plays every copy of a plain face
  (of any face once the draw pile is empty), so the rest of the hand lacks that face. A seat
  whose play shows it does not play so (a copy kept, a swap that keeps a dearer card in
  hand) loses the policy's facts for the rest of the game.

The state keeps the facts per seat as masks over the cards of its hand that no seat can see
(``ObsessionState._lacks``): a list of faces-bit masks, one a card, the strictest first, since a
card
held for longer carries the facts of every decision since. A new fact holds for each such
card; a card played from that part takes the strictest mask with it (which card it was is
not known, so what is left claims less); cards drawn later carry none. The policy's bits
sit above ``POLICY_SHIFT`` so that they can be dropped alone. Only the public table goes in:
the active face, the counts, the known cards and the play itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cardtable.games.obsession.bots import WEIGHTS
from cardtable.games.obsession.cards import FACE, JOKER, PLAIN_FACES, SPECIAL_FACES
from cardtable.games.obsession.legality import LEGAL

POLICY_SHIFT = 16
"""The policy's facts sit in the bits above this; the rules' facts below."""
RULES_MASK = (1 << POLICY_SHIFT) - 1

ALL_FACES = tuple(sorted(WEIGHTS))


def mask_of(faces: Iterable[int]) -> int:
    """The bit mask of ``faces`` (bit ``face``)."""
    mask = 0
    for face in faces:
        mask |= 1 << face
    return mask


def held_any(mask: int, cards: Iterable[int]) -> bool:
    """Does one of ``cards`` have a face in ``mask``?"""
    return any(mask >> FACE[card] & 1 for card in cards)


def legal_mask(active: int) -> int:
    """The faces legal on ``active``: what a seat that had to pick up did not hold."""
    return mask_of(face for face in ALL_FACES if LEGAL[active][face])


def _key(weights: dict[int, int], face: int) -> tuple[int, int]:
    return weights[face], face


def swap_mask(visible: Sequence[int]) -> int:
    """The faces the ``obsessed`` swap leaves out of the hand when it puts ``visible`` face
    up: every face dearer than the cheapest face-up card (``bots.obsessed_swap``)."""
    cheapest = min(_key(WEIGHTS, FACE[card]) for card in visible)
    return mask_of(face for face in ALL_FACES if _key(WEIGHTS, face) > cheapest)


def swap_deviates(visible: Sequence[int], into_hand: Iterable[int]) -> bool:
    """Did a card everyone saw go into the hand at the swap belong face up by ``obsessed``?"""
    return held_any(swap_mask(visible), into_hand)


def play_masks(face: int, copies: int, *, active: int, late: bool, behind: bool,
               next_empty: bool) -> tuple[int, int, bool]:
    """For a play of ``copies`` cards of ``face`` from a hand, as ``obsessed`` chooses it
    (``bots.ObsessedBot.pick_face``): the faces that were not in the hand when it chose
    (cheaper legal ones), the faces not left in it after (all copies played), and whether
    the number of copies shows that the seat does not play so.

    ``late``: the draw pile is empty; ``behind``: the hand held more cards than the draw pile;
    ``next_empty``: the next seat's hand is empty."""
    weights = WEIGHTS
    if late and next_empty:
        weights = {**weights, 3: 0, JOKER: 0, 7: 0}
    # A plain active face may weigh nothing when the hand held enough copies to kill (how
    # many it held is not seen): a play of that face then tells nothing about the others.
    may_kill = (late or behind) and active in PLAIN_FACES
    cheaper = 0
    if not (may_kill and face == active):
        row = LEGAL[active]
        cheaper = mask_of(other for other in ALL_FACES
                          if row[other] and _key(weights, other) < _key(weights, face))
    one_copy = face in SPECIAL_FACES and not late
    if one_copy:
        return cheaper, 0, copies > 1
    return cheaper, 1 << face, False


def with_fact(slots: list[int], unseen: int, mask: int) -> None:
    """A decision shows that each of the ``unseen`` cards of a hand lacks ``mask`` (already
    placed above ``POLICY_SHIFT`` for a policy's fact): ``slots`` grows to one a card."""
    del slots[unseen:]
    for index in range(len(slots)):
        slots[index] |= mask
    slots.extend([mask] * (unseen - len(slots)))


def combined(slots: Sequence[int]) -> tuple[int, ...]:
    """The faces each card lacks, the rules' and the policy's facts together."""
    return tuple((slot & RULES_MASK) | (slot >> POLICY_SHIFT) for slot in slots)
