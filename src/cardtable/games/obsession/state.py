"""The Obsession state machine: deal, swap, plays, pick-ups, runs and kills, placings, guards.

The state is mutated in place by ``apply`` (``clone`` first to keep a copy). It is built for
speed: cards are ints, piles are lists (hands and rows kept sorted, so that their order is the
display order), and the event log can be switched off for benchmarks and searches.
Automatic steps (the opening play, forced pick-ups) happen inside ``apply``, so ``to_move``
always names a seat that has a real decision to take.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from itertools import combinations, product

from cardtable.engine.errors import IllegalAction, NotationError, UnknownSeat
from cardtable.engine.history import History
from cardtable.engine.protocol import Result
from cardtable.engine.randomness import GameRandom
from cardtable.engine.seats import unknown_seat_message
from cardtable.games.obsession.actions import Action, Blind, Play, Swap
from cardtable.games.obsession.cards import FACE, JOKER, NO_CARD, TEXT, canonical_deck
from cardtable.games.obsession.core_export import CORE_FIELDS, CoreExport
from cardtable.games.obsession.events import (
    BlindTurned,
    Board,
    Drew,
    Ended,
    Event,
    PickedUp,
    Played,
    Stalemate,
    Started,
    Swapped,
    TurnStarted,
    WentOut,
)
from cardtable.games.obsession.inference import (
    POLICY_SHIFT,
    RULES_MASK,
    held_any,
    legal_mask,
    mask_of,
    play_masks,
    swap_deviates,
    swap_mask,
    with_fact,
)
from cardtable.games.obsession.legality import LEGAL, LEGAL_CARD, NONE
from cardtable.games.obsession.observation import Observation
from cardtable.games.obsession.phases import OVER as OVER
from cardtable.games.obsession.phases import PHASE_NAMES as PHASE_NAMES
from cardtable.games.obsession.phases import PLAY as PLAY
from cardtable.games.obsession.phases import SWAP as SWAP
from cardtable.games.obsession.rules import Rules
from cardtable.games.obsession.seats import seat_name as seat_name
from cardtable.games.obsession.selection import (
    DUPLICATE_CARD_SELECTION,
    GAME_OVER,
    INVALID_CARD_SELECTION,
    INVALID_SELECTION,
    action_for,
    expected,
    must_select,
)
from cardtable.games.obsession.selection import parse as parse_selection

# The phases (SWAP, PLAY, OVER, PHASE_NAMES) and ``seat_name`` have modules of their own: the
# position writer and the worlds use them without the state. They are imported above "as
# themselves" because the rest of the project knows them from here too.

START_ORDER = (4, 5, 6, 9, 11, 12, 13, 14, 2, 3, 7, 8, 10, 15)
"""Faces in the order that decides who starts: the first seat whose hand holds one."""

HAND_SIZE = 3
_FACE_BYTES = [bytes((face,)) for face in range(16)]
_NO_EVENTS: tuple[Event, ...] = ()


def seat_index(name: str, players: int) -> int:
    if name.startswith("P") and name[1:].isdigit() and 1 <= int(name[1:]) <= players:
        return int(name[1:]) - 1
    raise KeyError(name)


def shuffled_deck(players: int, seed: int | str) -> list[int]:
    """The draw pile for a seed, top first: the canonical decks shuffled by ``Random(seed)``."""
    deck = canonical_deck((players + 1) // 2)
    GameRandom(seed).shuffle(deck)
    return deck


class ObsessionState:
    """One game of Obsession. Seats are 0-based ints inside, named ``P1``.. to the engine."""

    __slots__ = (
        "_events", "_humans_left", "_kill_first", "_lacks", "_max_plays", "_modelled", "_parts",
        "_pile_faces",
        "_public", "_repeat_limit",
        "_run_kill", "_seen", "active", "current", "deck", "direction", "draw", "hands",
        "hidden", "humans", "killed", "known", "out", "phase", "pile", "placings", "players",
        "plays",
        "remaining", "removed", "rules", "run", "stalemate", "top_face", "turns", "visible",
    )

    def __init__(self, rules: Rules, deck: Sequence[int], humans: Sequence[bool],
                 *, log: bool = True) -> None:
        """Deal ``deck`` (top first) to ``rules.players`` seats; ``humans[i]`` marks human seats.

        With ``log=False`` no events or history are kept (``apply`` returns nothing), which is
        what benchmarks and searches want.
        """
        n = rules.players
        self.rules = rules
        self.players = n
        self.deck = tuple(deck)
        self.humans = tuple(humans)
        self._run_kill = rules.run_kill
        self._kill_first = rules.kill_order == "kill-first"
        self._max_plays = rules.max_plays
        self._repeat_limit = rules.repeat_limit
        self._humans_left = sum(1 for human in self.humans if human)
        self.hands: list[list[int]] = []
        self.visible: list[list[int]] = []
        self.hidden: list[list[int]] = []
        # Per seat, the cards every seat saw go into its hand and not leave it (sorted): see
        # ``observation.Observation.known``.
        self.known: list[list[int]] = [[] for _ in range(n)]
        # Per seat, what its choices showed about the part of its hand nobody sees, and
        # whether it still plays like ``obsessed``: see ``inference``. Kept with the log only.
        self._lacks: list[list[int]] = [[] for _ in range(n)]
        self._modelled = [True] * n
        pos = 0
        for _ in range(n):
            # Not round-robin: each seat takes 3 hand, 3 visible and 3 hidden cards in a row.
            self.hands.append(sorted(deck[pos:pos + 3]))
            self.visible.append(sorted(deck[pos + 3:pos + 6]))
            self.hidden.append(list(deck[pos + 6:pos + 9]))
            pos += 9
        # Kept bottom first, so that drawing the top card is a cheap pop().
        self.draw = list(reversed(deck[pos:]))
        self.pile: list[int] = []
        # The faces of ``pile``, bottom first, kept alongside for cheap position keys.
        self._pile_faces = bytearray()
        self.active = NONE
        self.top_face = 0
        self.run = 0
        self.direction = 1
        self.phase = SWAP
        self.current = 0
        self.out = [False] * n
        self.remaining = n
        self.placings: list[int] = []
        self.plays = 0
        self.turns = 0
        self.removed: list[int] = []
        self.killed: list[int] = []
        self.stalemate: str | None = None
        self._seen: dict[tuple[object, ...], int] = {}
        # Per seat, the faces of its hand, visible and hidden rows for the position key, or
        # None once they changed: most turns change one seat, so the key reuses the rest.
        self._parts: list[bytes | None] = [None] * n
        self._events: list[Event] | None = [] if log else None
        self._public: list[Event] | None = [] if log else None

    @classmethod
    def new(cls, rules: Rules, humans: Sequence[bool], seed: int | str,
            *, log: bool = True) -> ObsessionState:
        return cls(rules, shuffled_deck(rules.players, seed), humans, log=log)

    # --- the engine protocol -------------------------------------------------------------

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(seat_name(seat) for seat in range(self.players))

    @property
    def to_move(self) -> str | None:
        return None if self.phase == OVER else seat_name(self.current)

    @property
    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        went_out = len(self.placings) > 0 and self.out[self.placings[0]]
        winners = (seat_name(self.placings[0]),) if went_out else ()
        return Result(winners, self.stalemate or "out", {
            "placings": [seat + 1 for seat in self.placings],
            "stalemate": self.stalemate is not None,
            "plays": self.plays,
            "turns": self.turns,
        })

    def legal_actions(self) -> list[Action]:
        if self.phase == SWAP:
            seat = self.current
            pool = sorted(self.hands[seat] + self.visible[seat])
            return [Swap(chosen) for chosen in combinations(pool, 3)]
        if self.phase == OVER:
            return []
        seat = self.current
        if not self.hands[seat] and not self.visible[seat]:
            return [Blind(index) for index in range(1, len(self.hidden[seat]) + 1)]
        return [Play(cards) for cards in self.legal_plays()]

    def observation(self, seat: str | int) -> Observation:
        return self.observe(self.seat_number(seat))

    def clone(self) -> ObsessionState:
        other = ObsessionState.__new__(ObsessionState)
        for name in ObsessionState.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = [list(cards) for cards in self.hands]
        other.visible = [list(cards) for cards in self.visible]
        other.hidden = [list(cards) for cards in self.hidden]
        other.known = [list(cards) for cards in self.known]
        other._lacks = [list(slots) for slots in self._lacks]
        other._modelled = list(self._modelled)
        other.draw = list(self.draw)
        other.pile = list(self.pile)
        other._pile_faces = bytearray(self._pile_faces)
        other.out = list(self.out)
        other.placings = list(self.placings)
        other.removed = list(self.removed)
        other.killed = list(self.killed)
        other._seen = dict(self._seen)
        other._parts = list(self._parts)
        other._events = None if self._events is None else list(self._events)
        other._public = None if self._public is None else list(self._public)
        return other

    def apply(self, action: Action) -> Sequence[Event]:
        """Apply a decision of the seat to move and every automatic step after it.

        Returns the events since the action (empty when the log is off).
        """
        events = self._events
        mark = 0 if events is None else len(events)
        # An exact type test is cheaper than isinstance on this hot path; mypy cannot narrow
        # on it, hence the ignores below.
        kind = type(action)
        if kind is Play and self.phase == PLAY:
            # The most frequent decision by far, tested first.
            self._play(action.cards)  # type: ignore[union-attr]
        elif self.phase == PLAY:
            if kind is Play:
                self._play(action.cards)  # type: ignore[union-attr]
            elif kind is Blind:
                self._blind(action.index)  # type: ignore[union-attr]
            else:
                raise IllegalAction(INVALID_SELECTION)
        elif self.phase == SWAP:
            if kind is not Swap:
                raise IllegalAction(INVALID_SELECTION)
            self._swap(action.visible)  # type: ignore[union-attr]
        else:
            raise IllegalAction(GAME_OVER)
        return _NO_EVENTS if events is None else events[mark:]

    # --- queries -------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def source(self, seat: int) -> str:
        """The active pile of ``seat``: ``hand``, ``visible`` or ``hidden``."""
        if self.hands[seat]:
            return "hand"
        return "visible" if self.visible[seat] else "hidden"

    def source_cards(self, seat: int) -> list[int]:
        """The cards of the active pile (hand, else visible row, else hidden row). Do not mutate."""
        hand = self.hands[seat]
        if hand:
            return hand
        return self.visible[seat] or self.hidden[seat]

    def legal_plays(self) -> list[tuple[int, ...]]:
        """Every legal play of the seat to move from its hand or visible row.

        Copies with the same card text are interchangeable, so each multiset of texts is listed
        once, taking the first copies in display order (as records and selections do).
        """
        if self.phase != PLAY:
            return []
        seat = self.current
        cards = self.hands[seat] or self.visible[seat]
        row = LEGAL[self.active]
        groups: dict[int, dict[str, list[int]]] = {}
        for card in cards:
            face = FACE[card]
            if row[face]:
                groups.setdefault(face, {}).setdefault(TEXT[card], []).append(card)
        plays: list[tuple[int, ...]] = []
        for by_text in groups.values():
            copies = list(by_text.values())
            for counts in product(*(range(len(group) + 1) for group in copies)):
                chosen = tuple(sorted(c for group, k in zip(copies, counts, strict=True)
                                      for c in group[:k]))
                if chosen:
                    plays.append(chosen)
        return plays

    def next_seat(self, after: int) -> int:
        """The next seat still in the game after ``after`` in the current direction."""
        n = self.players
        seat = (after + self.direction) % n
        while self.out[seat]:
            seat = (seat + self.direction) % n
        return seat

    def cards_left(self, seat: int) -> int:
        return len(self.hands[seat]) + len(self.visible[seat]) + len(self.hidden[seat])

    def observe(self, seat: int) -> Observation:
        public = self._public
        # Built with map() and slices: this runs before every decision of a seat.
        return Observation(
            seat=seat,
            phase=PHASE_NAMES[self.phase],
            rules=self.rules,
            hand=tuple(self.hands[seat]),
            visible=tuple(map(tuple, self.visible)),
            hand_counts=tuple(map(len, self.hands)),
            hidden_counts=tuple(map(len, self.hidden)),
            draw_count=len(self.draw),
            discard=tuple(self.pile[::-1]),
            active_face=self.active,
            run=self.run,
            direction=self.direction,
            to_move=None if self.phase == OVER else self.current,
            out=tuple(self.out),
            placings=tuple(self.placings),
            history=History.view(public, len(public)) if public is not None else (),
            play_number=self.plays,
            killed=tuple(self.killed),
            removed=tuple(self.removed),
            known=tuple(map(tuple, self.known)),
            lacks=tuple(map(tuple, self._lacks)),
        )

    @property
    def events(self) -> Sequence[Event]:
        """Every event so far (including private ones); empty when the log is off."""
        return () if self._events is None else tuple(self._events)

    # --- decisions -----------------------------------------------------------------------

    def _swap(self, visible: tuple[int, ...]) -> None:
        seat = self.current
        pool = self.hands[seat] + self.visible[seat]
        if any(card not in pool for card in visible):
            raise IllegalAction(INVALID_CARD_SELECTION)
        if len(set(visible)) != len(visible):
            raise IllegalAction(DUPLICATE_CARD_SELECTION)
        if len(visible) != 3:
            raise IllegalAction(must_select(3))
        chosen = sorted(visible)
        # The row was face up: the cards that leave it for the hand are known to be there.
        known = self.known[seat]
        into_hand = [card for card in self.visible[seat] if card not in chosen]
        known.extend(into_hand)
        known.sort()
        self.visible[seat] = chosen
        self.hands[seat] = sorted(card for card in pool if card not in chosen)
        if self._events is not None and self._modelled[seat]:
            if swap_deviates(chosen, into_hand):
                self._unmodel(seat)
            else:
                self._learn(seat, swap_mask(chosen) << POLICY_SHIFT)
        self._parts[seat] = None
        self._emit(Swapped(seat, tuple(chosen)))
        if seat + 1 < self.players:
            self.current = seat + 1
        else:
            self._open()

    def _open(self) -> None:
        self.phase = PLAY
        starter, face = 0, 0
        for face in START_ORDER:
            holders = [s for s in range(self.players)
                       if any(FACE[card] == face for card in self.hands[s])]
            if holders:
                starter = holders[0]
                break
        self._emit(Started(starter))
        if self._events is not None:
            # No hand held an earlier face, no seat before the starter held this one, and
            # the starter plays every copy of it.
            earlier = mask_of(START_ORDER[:START_ORDER.index(face)])
            for other in range(self.players):
                self._learn(other, earlier | (1 << face if other <= starter else 0))
        self.turns = 1
        self.current = starter
        self._emit_turn(starter)
        hand = self.hands[starter]
        cards = tuple(card for card in hand if FACE[card] == face)
        self.hands[starter] = [card for card in hand if FACE[card] != face]
        self.plays = 1
        if self._events is not None:
            self._forget_played(starter, cards)
        self._lay(starter, "hand", cards, True, self.hands[starter])

    def _play(self, cards: tuple[int, ...]) -> None:
        seat = self.current
        source = self.hands[seat]
        name = "hand"
        if not source:
            source = self.visible[seat]
            name = "visible"
        if not source or not cards:
            raise IllegalAction(INVALID_SELECTION)
        if len(cards) == 1 and type(cards) is tuple:
            # Most plays are a single card: one membership test covers every check but
            # legality, and the tuple is already in display order.
            card = cards[0]
            if card not in source or not LEGAL_CARD[self.active][card]:
                raise IllegalAction(INVALID_SELECTION)
            if self._events is not None and name == "hand":
                self._learn_play(seat, cards)
            self.plays += 1
            source.remove(card)
            self._lay(seat, name, cards, False, source)
            return
        # Membership first: it also guarantees that every item is a real card id.
        for card in cards:
            if card not in source:
                raise IllegalAction(INVALID_SELECTION)
        face = FACE[cards[0]]
        if len(cards) > 1:
            for card in cards:
                if FACE[card] != face:
                    raise IllegalAction(INVALID_SELECTION)
            if len(set(cards)) != len(cards):
                raise IllegalAction(INVALID_SELECTION)
        if not LEGAL[self.active][face]:
            raise IllegalAction(INVALID_SELECTION)
        if self._events is not None and name == "hand":
            self._learn_play(seat, cards)
        self.plays += 1
        for card in cards:
            source.remove(card)
        self._lay(seat, name, tuple(sorted(cards)), False, source)

    def _blind(self, index: int) -> None:
        seat = self.current
        if self.hands[seat] or self.visible[seat]:
            raise IllegalAction(INVALID_SELECTION)
        hidden = self.hidden[seat]
        if type(index) is not int or not 1 <= index <= len(hidden):
            raise IllegalAction(INVALID_CARD_SELECTION)
        self.plays += 1
        card = hidden.pop(index - 1)
        self._emit(BlindTurned(self.plays, seat, index, card, len(hidden)))
        if LEGAL[self.active][FACE[card]]:
            self._lay(seat, "hidden", (card,), False, hidden)
        else:
            # The turned card stays in the hand and the pile is picked up on top of it.
            self.hands[seat].append(card)
            self.known[seat].append(card)
            self._pick_up(seat)
            self._next(seat, False)

    # --- what the choices show (see ``inference``) ------------------------------------------

    def _learn(self, seat: int, mask: int) -> None:
        """Each card of ``seat``'s hand that no seat sees lacks the faces of ``mask``."""
        with_fact(self._lacks[seat], len(self.hands[seat]) - len(self.known[seat]), mask)

    def _forget_played(self, seat: int, cards: Sequence[int]) -> int:
        """``cards`` are about to leave ``seat``'s hand: those nobody knew were there take a
        mask each (the strictest). Returns how many cards nobody sees the hand keeps."""
        known = self.known[seat]
        unseen = sum(1 for card in cards if card not in known)
        del self._lacks[seat][:unseen]
        return len(self.hands[seat]) - len(known) - unseen

    def _unmodel(self, seat: int) -> None:
        """``seat`` does not play like ``obsessed``: its policy's facts go."""
        self._modelled[seat] = False
        self._lacks[seat] = [slot & RULES_MASK for slot in self._lacks[seat]]

    def _learn_play(self, seat: int, cards: tuple[int, ...]) -> None:
        """Before ``seat`` plays ``cards`` from its hand (checked legal)."""
        if self._modelled[seat]:
            hand = self.hands[seat]
            late = not self.draw
            cheaper, after, deviates = play_masks(
                FACE[cards[0]], len(cards), active=self.active, late=late,
                behind=len(hand) > len(self.draw),
                next_empty=not self.hands[self.next_seat(seat)])
            kept = [card for card in self.known[seat] if card not in cards]
            if deviates or held_any(after, kept):
                self._unmodel(seat)
            elif not held_any(cheaper, kept):
                # A cheaper face seen in the hand: this was one of the policy's rarer picks,
                # which says nothing about the rest of the hand.
                self._learn(seat, cheaper << POLICY_SHIFT)
            if self._modelled[seat]:
                unseen = self._forget_played(seat, cards)
                # Every copy went: the rest of the hand lacks that face.
                with_fact(self._lacks[seat], unseen, after << POLICY_SHIFT)
                return
        self._forget_played(seat, cards)

    # --- steps ---------------------------------------------------------------------------

    def _lay(self, seat: int, source: str, cards: tuple[int, ...], auto: bool,
             rest: list[int]) -> None:
        """Put ``cards`` (one face, display order) on the pile and run the post-play steps."""
        self._parts[seat] = None
        if source == "hand":
            known = self.known[seat]
            if known:
                for card in cards:
                    if card in known:
                        known.remove(card)
        pile = self.pile
        pile.extend(cards)
        face = FACE[cards[0]]
        count = len(cards)
        if count == 1:
            self._pile_faces.append(face)
        else:
            self._pile_faces += _FACE_BYTES[face] * count
        # The run is kept in a local: it is read up to twice below.
        run = self.run + count if face == self.top_face else count
        self.top_face = face
        self.run = run
        if face != JOKER:
            self.active = face
        reverse = kill = extra = False
        if run >= self._run_kill and self._kill_first:
            kill = True
        else:
            if face == 8:
                extra = True
            elif face == 10:
                kill = True
            elif face == JOKER:
                reverse = True
                self.direction = -self.direction
            # After a 10 the pile is already dead, so there is no run left to check.
            if not kill and run >= self._run_kill:
                kill = True
        if kill:
            self.killed.extend(pile)
            # Fewer cards are in play from now on, so no position seen so far can come back.
            self._seen.clear()
            pile.clear()
            self._pile_faces.clear()
            self.active = NONE
            self.top_face = 0
            self.run = 0
            extra = True
        hand = self.hands[seat]
        draw = self.draw
        drawn = 0
        if len(hand) < HAND_SIZE and draw:
            start = len(hand)
            while len(hand) < HAND_SIZE and draw:
                hand.append(draw.pop())
            drawn = len(hand) - start
            if self._events is not None:
                drew = tuple(hand[start:])
            hand.sort()
        gone = not draw and not hand and not self.visible[seat] and not self.hidden[seat]
        if gone:
            extra = False
        if self._events is not None:
            effects = (("reverse",) if reverse else ()) + (("kill",) if kill else ()) + (
                ("extra",) if extra else ())
            self._emit(Played(self.plays, seat, source, cards, auto, effects, drawn, len(rest)))
            if drawn:
                self._emit(Drew(seat, drew))
        if gone:
            self._go_out(seat)
            if self.phase == OVER:
                return
        elif extra and self.plays < self._max_plays:
            # The extra play of ``_next``, taken here: it is frequent (8s, 10s and kills) and
            # needs none of the search for the next seat.
            self.current = seat
            if self._events is not None:
                self._emit(self._board(seat))
            return
        self._next(seat, extra)

    def _pick_up(self, seat: int) -> None:
        self._parts[seat] = None
        pile = self.pile
        hand = self.hands[seat]
        known = self.known[seat]
        threes = 0
        for card in pile:
            if FACE[card] == 3:
                self.removed.append(card)
                threes += 1
            else:
                hand.append(card)
                known.append(card)
        if threes:
            self._seen.clear()  # cards left the game: earlier positions cannot recur
        count = len(pile) - threes
        pile.clear()
        self._pile_faces.clear()
        self.active = NONE
        self.top_face = 0
        self.run = 0
        hand.sort()
        known.sort()
        if self._events is not None:
            self._emit(PickedUp(self.plays, seat, count, threes))

    def _go_out(self, seat: int) -> None:
        self.out[seat] = True
        self.placings.append(seat)
        self.remaining -= 1
        if self.humans[seat]:
            self._humans_left -= 1
        self._emit(WentOut(seat, len(self.placings)))
        if self.remaining == 1:
            self.placings.append(self.out.index(False))
            self._end(None)

    def _next(self, seat: int, extra: bool) -> None:
        """After a play by ``seat``: the cap, then an extra play or the next turns.

        Forced pick-ups are taken here until a seat has a real decision.
        """
        if self.plays >= self._max_plays:
            self._stalemate("cap")
            return
        if extra:
            self.current = seat
            if self._events is not None:
                self._emit(self._board(seat))
            return
        n = self.players
        out = self.out
        step = self.direction
        hands = self.hands
        visible = self.visible
        # Neither the draw pile nor the seats change while forced pick-ups go round, so
        # whether the repetition guard applies is decided once.
        guard = self._repeat_limit and not self.draw and not self._humans_left
        logged = self._events is not None
        while True:
            seat = (seat + step) % n
            while out[seat]:
                seat = (seat + step) % n
            if guard:
                key = self._position_key(seat)
                seen = self._seen.get(key, 0) + 1
                self._seen[key] = seen
                if seen >= self._repeat_limit:
                    self.current = seat
                    self._stalemate("repetition")
                    return
            self.turns += 1
            self.current = seat
            if logged:
                self._emit_turn(seat)
            cards = hands[seat] or visible[seat]
            if not cards:
                return  # a blind attempt
            legal = LEGAL_CARD[self.active]
            for card in cards:
                if legal[card]:
                    return
            self.plays += 1
            if logged and hands[seat]:
                self._learn(seat, legal_mask(self.active))
            self._pick_up(seat)
            if self.plays >= self._max_plays:
                self._stalemate("cap")
                return

    def _position_key(self, seat: int) -> tuple[object, ...]:
        """Seat to move, direction, the faces of the pile (kept bottom first, which tells
        positions apart just as well as top first), and for each remaining seat the faces of
        its sorted hand, sorted visible row and hidden row in order.

        Faces are packed into bytes (a 0 closes each part); the parts of seats that did not
        change since the last key are reused, because this runs at the start of every turn.
        """
        face = FACE.__getitem__
        parts = self._parts
        out = self.out
        for other in range(self.players):
            if parts[other] is None and not out[other]:
                # One list display and one pass through ``FACE``: the fewest allocations.
                parts[other] = bytes(map(face, [*self.hands[other], NO_CARD,
                                                *self.visible[other], NO_CARD,
                                                *self.hidden[other]]))
        pile = bytes(self._pile_faces)
        if self.remaining == self.players:
            return (seat, self.direction, pile, *parts)
        return (seat, self.direction, pile,
                *[part for part, gone in zip(parts, out, strict=True) if not gone])

    def _stalemate(self, reason: str) -> None:
        self.stalemate = reason
        left = [seat for seat in range(self.players) if not self.out[seat]]
        left.sort(key=lambda seat: (self.cards_left(seat), seat))
        self.placings.extend(left)
        limit = self._max_plays if reason == "cap" else self._repeat_limit
        self._emit(Stalemate(reason, self.plays, limit))
        self._end(reason)

    def _end(self, reason: str | None) -> None:
        self.phase = OVER
        finished = sum(1 for gone in self.out if gone)
        self._emit(Ended(tuple(self.placings), reason is not None, reason, finished, self.plays,
                         self.turns, tuple(self.cards_left(s) for s in range(self.players))))

    # --- event log -----------------------------------------------------------------------

    def _emit(self, event: Event) -> None:
        if self._events is not None:
            self._events.append(event)
            if self._public is not None and not isinstance(event, Board | Drew):
                self._public.append(event)

    def _emit_turn(self, seat: int) -> None:
        self._emit(TurnStarted(seat))
        self._emit(self._board(seat))

    def _board(self, seat: int) -> Board:
        pile = self.pile
        return Board(seat, len(self.draw), len(pile), tuple(pile[:-6:-1]), tuple(self.hands[seat]),
                     tuple(self.visible[seat]), len(self.hidden[seat]))

    # --- the compiled core's door

    def export_core(self) -> CoreExport:
        """The game as the compiled core imports it: a flat tuple with the fields
        ``core_export.CORE_FIELDS`` in order (the core reads nothing else)."""
        return tuple(self._seen if name == "seen" else getattr(self, name)
                     for name in CORE_FIELDS)

    # --- game API: positions

    def to_position(self) -> str:
        """The whole state as one line of text; ``position.from_position`` restores it."""
        from cardtable.games.obsession.position_writer import to_position

        return to_position(self)

    # --- game API: action indices

    def action_index(self, action: Action) -> int:
        """The fixed index of ``action`` (see ``cardtable.games.obsession.action_index``)."""
        from cardtable.games.obsession import action_index

        return action_index.action_index(self, action)

    def index_action(self, index: int) -> Action:
        """The action of the seat to move at action index ``index``."""
        from cardtable.games.obsession import action_index

        return action_index.index_action(self, index)

    def legal_mask(self) -> bytes:
        """``num_actions`` bytes: 1 at the index of each legal action."""
        from cardtable.games.obsession import action_index

        return action_index.legal_mask(self)

    # --- game API: notation and seats

    def seat_number(self, seat: str | int) -> int:
        """The index of ``seat`` (``P1``.. or 0..); ``UnknownSeat`` for anything else."""
        # Asked before every decision: names are read directly, not looked up among seats.
        if isinstance(seat, str):
            if len(seat) < 8:  # no int() of thousands of digits
                with suppress(KeyError):
                    return seat_index(seat.strip().upper(), self.players)
        elif isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < self.players:
            return seat
        raise UnknownSeat(unknown_seat_message(seat, self.seats))

    def _pool(self) -> list[int]:
        """The cards the seat to move selects from: the swap pool, else its active pile."""
        seat = self.current
        if self.phase == SWAP:
            return sorted(self.hands[seat] + self.visible[seat])
        return self.hands[seat] or self.visible[seat]

    def parse_action(self, text: str) -> Action:
        """The action written ``text`` for the seat to move.

        The notation names cards by their text, a kind word first: ``play 9C 9H``,
        ``swap 4C 9H KS``, ``blind 2``; ``9H#2`` is the second ``9H`` of the pile (only needed
        between copies of a multi-deck game). Without a kind word the decision at hand is
        meant, and a line of numbers is a selection by position as the line mode reads it
        (``1 3``). Raises :class:`NotationError` with the selection's message otherwise.
        """
        if self.phase == OVER:
            raise NotationError(GAME_OVER)
        words = text.split()
        head = words[0].lower() if words else ""
        if head in ("play", "swap", "blind"):
            kind, rest = head, words[1:]
        else:
            rest = words
            if self.phase == SWAP:
                kind = "swap"
            else:
                kind = "play" if self.hands[self.current] or self.visible[self.current] else "blind"
            if not any(char.isalpha() for char in text):
                observation = self.observe(self.current)
                picked, message = parse_selection(text, *expected(observation))
                if message is not None:
                    raise NotationError(message)
                if not picked:
                    raise NotationError(INVALID_SELECTION)
                return action_for(observation, picked)
        if kind == "blind":
            if len(rest) != 1 or not rest[0].isascii() or not rest[0].isdigit():
                raise NotationError(INVALID_SELECTION)
            if len(rest[0]) > 6:
                raise NotationError(INVALID_CARD_SELECTION)
            return Blind(int(rest[0]))
        if not rest:
            raise NotationError(INVALID_SELECTION)
        pool = self._pool()
        chosen: list[int] = []
        for word in rest:
            name, hash_sign, copy = word.upper().partition("#")
            same = [card for card in pool if TEXT[card] == name]
            if hash_sign:
                number = int(copy) if copy.isascii() and copy.isdigit() and len(copy) < 4 else 0
                card = same[number - 1] if 1 <= number <= len(same) else NO_CARD
            else:
                card = next((card for card in same if card not in chosen), NO_CARD)
            if card == NO_CARD:
                raise NotationError(INVALID_CARD_SELECTION)
            if card in chosen:
                raise NotationError(DUPLICATE_CARD_SELECTION)
            chosen.append(card)
        cards = tuple(sorted(chosen))
        return Swap(cards) if kind == "swap" else Play(cards)

    def action_text(self, action: Action) -> str:
        """``action`` in notation (see :meth:`parse_action`): ``play 9C 9H``, ``blind 2``."""
        if isinstance(action, Blind):
            return f"blind {action.index}"
        cards = action.visible if isinstance(action, Swap) else action.cards
        pool = self._pool() if self.phase != OVER else []
        words: list[str] = []
        used: list[int] = []
        for card in cards:
            same = [other for other in pool if TEXT[other] == TEXT[card]]
            first = next((other for other in same if other not in used), None)
            if first == card or card not in same:
                words.append(TEXT[card])
            else:
                words.append(f"{TEXT[card]}#{same.index(card) + 1}")
            used.append(card)
        kind = "swap" if isinstance(action, Swap) else "play"
        return " ".join((kind, *words))

    # --- game API: sampled worlds

    def sample_world(self, seat: str | int, seed: int | str) -> ObsessionState:
        """A full state agreeing with all ``seat`` sees, the cards it cannot see dealt at
        random (see ``cardtable.games.obsession.worlds``); independent of this one."""
        from cardtable.games.obsession import worlds

        return worlds.sample_world(self, self.seat_number(seat), seed)
