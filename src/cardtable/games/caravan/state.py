"""The Caravan game state: setup, moves, drawing, the end of the game (specification §4–§6)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from cardtable.engine.protocol import Result
from cardtable.engine.randomness import GameRandom, fresh_seed
from cardtable.engine.seats import seat_number
from cardtable.games.caravan import deck as deck_building
from cardtable.games.caravan.board import (
    ASC,
    DESC,
    EMPTY_SUMMARY,
    Caravan,
    Summary,
    effective_suit,
    ends_in_equal_ranks,
    lane_taker,
    most_faces,
    summarize,
    summary_with_numeral,
)
from cardtable.games.caravan.cards import (
    ACE,
    JACK,
    JOKER,
    NUMERAL_MAX,
    QUEEN,
    RANK_MASK,
    SEATS,
    is_numeral,
    owner_of,
    rank_of,
    suit_of,
)
from cardtable.games.caravan.core_export import CoreExport, export_core
from cardtable.games.caravan.errors import IllegalMove, MoveSyntaxError
from cardtable.games.caravan.events import HistoryEntry, MoveEvent
from cardtable.games.caravan.history import CaravanHistory, History
from cardtable.games.caravan.legality import (
    GAME_OVER,
    Table,
    has_legal_move,
    legal_codes,
    move_error,
)
from cardtable.games.caravan.notation import (
    DISCARD,
    PLAY,
    Move,
    pack,
    parse_move,
)
from cardtable.games.caravan.observation import Observation
from cardtable.games.caravan.rules import Rules, SeatRules
from cardtable.games.caravan.stalemate import STALEMATE, idle_plies
from cardtable.games.caravan.turn_moves import TurnMoves


class Shuffler(Protocol):
    """The part of a random source the game uses after its decks are built."""

    def shuffle(self, items: list[int]) -> None: ...


_new_tuple = tuple.__new__

_SEAT_NUMBER: dict[str | int, int] = {
    **{name: number for number, name in enumerate(SEATS)}, 0: 0, 1: 1}

_NO_SLOT = pack(3, 7, 0xFFFF)
"""The bits of a packed move below its slot."""
_KIND_AND_HAND = pack(3, 0, 0xFFFF)
"""The bits of a packed move that say its kind and hand position."""


def _numerals(cards: Sequence[int]) -> int:
    return sum(1 for card in cards if is_numeral(card))


def seat_index(seat: str | int) -> int:
    """0 for ``ABC``/0, 1 for ``DEF``/1; :class:`~cardtable.engine.errors.UnknownSeat` (a
    ``ValueError``) for anything else."""
    return seat_number(seat, SEATS)


class CaravanState:
    """A game of Caravan between ABC (seat 0) and DEF (seat 1).

    ``apply``/``play`` mutate the game; ``clone`` is cheap (lists of ints and tuples).
    ``_moves`` is what the last observation of the seat to move learnt of the turn's legal
    moves (see ``turn_moves``), None after every move.
    """

    __slots__ = (
        "_history", "_moves", "caravans", "crowding", "decks", "first", "hands", "held",
        "initial_decks", "jack_as_joker", "moves_made", "mulligans", "piles", "placed", "plies",
        "result", "rng", "rules", "seat_rules", "seed", "summaries", "turn",
    )

    caravans: list[Caravan]
    summaries: list[Summary]
    crowding: list[int]
    held: list[int | None]
    hands: list[list[int]]
    decks: list[list[int]]
    piles: list[list[int]]
    placed: list[int]
    moves_made: list[int]
    _history: CaravanHistory
    _moves: TurnMoves | None
    result: Result | None
    rng: Shuffler
    rules: tuple[Rules, Rules]
    seat_rules: SeatRules
    seed: int
    turn: int
    first: int
    plies: int
    jack_as_joker: tuple[bool, bool]
    initial_decks: tuple[tuple[int, ...], tuple[int, ...]]
    mulligans: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]

    seats = SEATS

    # ----------------------------------------------------------------- setup

    @classmethod
    def new(
        cls,
        rules: SeatRules,
        seed: int | None = None,
        first: str | int = "ABC",
        decks: Sequence[Sequence[int] | None] | None = None,
    ) -> CaravanState:
        """Build both decks (random, or the given deck-file cards, shuffled), deal and mulligan.

        All setup randomness comes from ``random.Random(seed)``: ABC's deck, DEF's deck,
        ABC's mulligans, DEF's mulligans, then the reshuffles during play. With the compiled
        core, random decks are built there, with the same draws of the same generator
        (``deck.compiled_random_decks``): the same game either way.
        """
        if seed is None:
            seed = fresh_seed()
        if decks is None and (dealt := deck_building.compiled_random_decks(rules, seed)):
            abc_deck, def_deck, generator = dealt
            jokerless = (deck_building.jokerless_by_construction(rules.abc),
                         deck_building.jokerless_by_construction(rules.def_))
            return cls.start(rules, seed, seat_index(first), (abc_deck, def_deck), jokerless,
                             generator)
        rng = GameRandom(seed)
        built: list[list[int]] = []
        no_jokers: list[bool] = []
        for seat in (0, 1):
            seat_rules = rules.of(seat)
            given = decks[seat] if decks is not None else None
            if given is None:
                built.append(deck_building.build_random_deck(seat_rules, seat, rng))
                no_jokers.append(seat_rules.jokers_per_sample == 0)
            else:
                built.append(deck_building.shuffle_file_deck(list(given), seat_rules, rng))
                no_jokers.append(not any(rank_of(card) == JOKER for card in given))
        return cls.start(rules, seed, seat_index(first), built, (no_jokers[0], no_jokers[1]), rng)

    @classmethod
    def start(
        cls,
        rules: SeatRules,
        seed: int,
        first: int,
        deck_lists: Sequence[list[int]],
        decks_without_jokers: tuple[bool, bool],
        rng: Shuffler,
    ) -> CaravanState:
        """Deal from ready decks (top card last) and run the mulligans; used by replay too."""
        game = cls.__new__(cls)
        game.seat_rules = rules
        game.rules = rules.as_tuple()
        game.seed = seed
        game.first = first
        game.turn = first
        game.rng = rng
        game.caravans = [(), (), (), (), (), ()]
        game.summaries = [EMPTY_SUMMARY] * 6
        game.crowding = [0] * 6
        game.held = [None] * 6
        game.decks = [list(deck_lists[0]), list(deck_lists[1])]
        game.initial_decks = (tuple(reversed(game.decks[0])), tuple(reversed(game.decks[1])))
        game.hands = [[], []]
        game.piles = [[], []]
        game.placed = [0, 0]
        game.moves_made = [0, 0]
        game.plies = 0
        game.result = None
        game._moves = None
        game.jack_as_joker = (
            decks_without_jokers[0] and game.rules[0].jack_is_joker_without_jokers,
            decks_without_jokers[1] and game.rules[1].jack_is_joker_without_jokers,
        )
        history: list[HistoryEntry] = []
        mulligans: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
        for seat in (0, 1):
            game._draw(seat, game.rules[seat].opening_hand)
        for seat in (0, 1):
            seat_rules = game.rules[seat]
            policy = seat_rules.mulligan
            if policy == "discard" and seat_rules.opening_mode == "simultaneous":
                policy = "reshuffle"
            if policy != "reshuffle":
                continue
            hand, deck = game.hands[seat], game.decks[seat]
            if _numerals(hand) + _numerals(deck) < 3:
                continue
            while _numerals(hand) < 3:
                shown = tuple(hand)
                history.append(HistoryEntry(seat, None, shown))
                deck.extend(hand)
                hand.clear()
                rng.shuffle(deck)
                mulligans.append((seat, shown, tuple(reversed(deck))))
                game._draw(seat, seat_rules.opening_hand)
        game._history = History(history)
        game.mulligans = tuple(mulligans)
        game.summaries = [summarize((), None, game.rules[i // 3]) for i in range(6)]
        if not has_legal_move(game.table()):
            game._finish((SEATS[1 - game.turn],), "no_legal_move")
        return game

    # ----------------------------------------------------------- properties

    @property
    def history(self) -> CaravanHistory:
        """The public events so far: mulligans shown, then one entry per move."""
        return self._history

    @history.setter
    def history(self, entries: Sequence[HistoryEntry]) -> None:
        self._history = entries if isinstance(entries, History) else History(entries)

    @property
    def to_move(self) -> str | None:
        return None if self.result is not None else SEATS[self.turn]

    def in_opening(self, seat: int) -> bool:
        """Whether ``seat``'s Start round is still in progress."""
        return self.placed[seat] < 3 and self.rules[seat].opening_mode != "none"

    def _discard_mulligan(self, seat: int) -> bool:
        rules = self.rules[seat]
        if rules.mulligan != "discard" or rules.opening_mode != "alternate":
            return False
        if not self.in_opening(seat):
            return False
        empty = sum(1 for i in range(3 * seat, 3 * seat + 3) if not self.caravans[i])
        return _numerals(self.hands[seat]) < empty

    def table(self, seat: int | None = None) -> Table:
        """What legality needs for ``seat`` (default: the seat to move)."""
        mover = self.turn if seat is None else seat
        # in_opening and _discard_mulligan, read once (asked at every move).
        opening = self.placed[mover] < 3 and self.rules[mover].opening_mode != "none"
        return Table(
            self.caravans, self.summaries, self.rules, mover, self.hands[mover],
            opening, self.jack_as_joker[mover], opening and self._discard_mulligan(mover),
            self.crowding,
        )

    def opening_hidden(self) -> bool:
        """During a simultaneous opening nobody sees the other seat's opening cards."""
        return (
            self.rules[0].opening_mode == "simultaneous"
            and self.result is None
            and self.placed[0] + self.placed[1] < 6
        )

    # ---------------------------------------------------------------- moves

    def legal_codes(self) -> list[int]:
        if self.result is not None:
            return []
        return legal_codes(self.table())

    def legal_moves(self) -> list[Move]:
        seat = self.turn
        return [Move.from_code(seat, code) for code in self.legal_codes()]

    legal_actions = legal_moves

    def play(self, move: Move) -> MoveEvent:
        if self.result is not None:
            raise IllegalMove(GAME_OVER)
        if move.seat != self.turn:
            raise IllegalMove(f"It is not {SEATS[move.seat]}'s turn.")
        # move.code, packed here (the match loop's path: one call fewer).
        return self.apply_code(pack(move.kind, move.caravan, move.hand, move.slot))

    apply = play

    def apply_code(self, code: int) -> MoveEvent:
        """Apply packed move ``code`` for the seat to move; raises ``IllegalMove`` and changes
        nothing if the rules refuse it."""
        # The match loop's hot path: game facts are read into locals once, the packed code
        # is taken apart inline (as ``notation.unpack`` does) and each kind of move does only
        # its own steps.
        if self.result is not None:
            raise IllegalMove(GAME_OVER)
        mover = self.turn
        all_rules = self.rules
        rules = all_rules[mover]
        hand = self.hands[mover]
        opening = self.placed[mover] < 3 and rules.opening_mode != "none"
        moves = self._moves
        if moves is None or not (moves.table.is_legal(code) if moves.table is not None
                                 else moves.allows(code)):
            # Not known legal this turn: the rules decide, and give the refusal.
            # self.table(), built here from the facts this method reads anyway.
            table = Table(self.caravans, self.summaries, all_rules, mover, hand, opening,
                          self.jack_as_joker[mover], opening and self._discard_mulligan(mover),
                          self.crowding)
            error = move_error(table, code)
            if error is not None:
                raise IllegalMove(error)
        self._moves = None
        kind = code & 3
        position = (code >> 5) & 0xFFFF
        target: int | None = None
        removed: tuple[int, ...] = ()
        card: int | None
        shown: tuple[int, ...]
        if kind == PLAY:
            caravan = (code >> 2) & 7
            card = hand.pop(position - 1)
            if card & RANK_MASK <= NUMERAL_MAX:
                caravans, summaries = self.caravans, self.summaries
                caravans[caravan] = (*caravans[caravan], (card, ()))
                self.held[caravan] = None
                summaries[caravan] = summary_with_numeral(
                    summaries[caravan], card, all_rules[caravan // 3])
                # A new slot has no faces: the most faces on one slot is unchanged.
                code &= _NO_SLOT  # no slot on a numeral play
                if opening:
                    self.placed[mover] += 1
                shown = (card,)
            else:
                slot = code >> 21
                target = self.caravans[caravan][slot - 1][0]
                removed = self._play_face(mover, card, caravan, slot)
                shown = (card, target)
        elif kind == DISCARD:
            card = hand.pop(position - 1)
            self.piles[mover].append(card)
            code &= _KIND_AND_HAND  # a discard names no caravan and no slot
            shown = (card,)
        else:
            caravan = (code >> 2) & 7
            old = self.caravans[caravan]
            removed = tuple(c for numeral, faces in old for c in (numeral, *faces))
            for removed_card in removed:
                self.piles[owner_of(removed_card)].append(removed_card)
            self.held[caravan] = None
            if rules.clear_policy == "destroy_restart":
                card = hand.pop(position - 1)
                self.caravans[caravan] = ((card, ()),)
                shown = (*removed, card)
            else:
                card = None
                position = 0
                self.caravans[caravan] = ()
                shown = removed
            self._refresh(caravan)
            code = pack(kind, caravan, position, code >> 21)
        self.plies += 1
        self.moves_made[mover] += 1
        hidden = opening and all_rules[0].opening_mode == "simultaneous"
        # tuple.__new__ makes the same entry as HistoryEntry(...) without its Python-level
        # __new__ (as does the event below).
        self._history = self._history.plus(_new_tuple(HistoryEntry, (mover, code, shown, hidden)))
        # Draw step: skipped during the Start round (including the move that completes it),
        # except after a discard mulligan.
        if opening:
            count = 1 if kind == DISCARD else 0
        else:
            count = rules.hand_size - len(hand)
            if count > 1 and rules.draw_mode == "one":
                count = 1
        shuffles: list[tuple[int, tuple[int, ...]]] = []
        if count > 0:
            deck = self.decks[mover]
            if count == 1 and deck:  # the usual draw, without the reshuffle's bookkeeping
                hand.append(deck.pop())
            else:
                self._draw(mover, count, shuffles)
        # The end of the game: the usual case (both seats hold cards and neither value of
        # the first lane is in its owner's sold range: the lane is undecided) is seen here.
        hands = self.hands
        if not (hands[0] and hands[1]):
            self._end_check()
        else:
            summaries, (abc, def_) = self.summaries, all_rules
            if (abc.sold_min <= summaries[0][0] <= abc.sold_max
                    or def_.sold_min <= summaries[3][0] <= def_.sold_max):
                self._end_check()
        if self.result is None:
            if not (hidden and self.placed[mover] < 3):
                self.turn = 1 - mover
            # Outside its Start round a seat with cards can always discard.
            turn = self.turn
            if ((self.placed[turn] < 3 and all_rules[turn].opening_mode != "none")
                    or not self.hands[turn]) and not has_legal_move(self.table()):
                self._finish((SEATS[1 - turn],), "no_legal_move")
            elif (kind == DISCARD and (limit := self.seat_rules.stuck_plies) is not None
                  and idle_plies(self._history, self.plies, limit) >= limit):
                self.abandon(STALEMATE)
        return _new_tuple(
            MoveEvent, (mover, code, card, target, removed, tuple(shuffles) if shuffles else ()))

    def _refresh(self, caravan: int) -> None:
        slots = self.caravans[caravan]
        self.summaries[caravan] = summarize(slots, self.held[caravan], self.rules[caravan // 3])
        self.crowding[caravan] = most_faces(slots)

    def _play_face(self, mover: int, card: int, caravan: int, slot: int) -> tuple[int, ...]:
        rank = rank_of(card)
        before = self.summaries[:]
        rules = self.rules[mover]
        if rank == JACK and self.jack_as_joker[mover]:
            rank = JOKER
        slots = self.caravans[caravan]
        target_slot = slots[slot - 1]
        if rank == JACK:
            removed = (target_slot[0], *target_slot[1])
            self.caravans[caravan] = slots[: slot - 1] + slots[slot:]
            for gone in removed:
                self.piles[owner_of(gone)].append(gone)
            self.piles[mover].append(card)
            self._after_removal((caravan,), before)
            return removed
        attached = (target_slot[0], (*target_slot[1], card))
        self.caravans[caravan] = (*slots[:slot - 1], attached, *slots[slot:])
        if rank != JOKER:
            held = self.held[caravan]
            if (rank == QUEEN and slot == len(slots) and held in (ASC, DESC)
                    and self.rules[caravan // 3].queen_changes_direction):
                self.held[caravan] = ASC if held == DESC else DESC
            self._refresh(caravan)
            return ()
        # Joker: remove every matching numeral on all six caravans at once.
        target = target_slot[0]
        target_rank = rank_of(target)
        by_suit = target_rank == ACE and rules.joker_ace_mode == "suit"
        effective = rules.joker_ace_suit_test == "effective"
        target_suit = suit_of(target)
        survives = rules.joker_target_survives
        removed_cards: list[int] = []
        changed: list[int] = []
        for index in range(6):
            current = self.caravans[index]
            if not current:
                continue
            suit_rules = self.rules[index // 3].queen_changes_suit
            kept: list[tuple[int, tuple[int, ...]]] = []
            for position, each in enumerate(current, 1):
                numeral = each[0]
                is_target = index == caravan and position == slot
                if is_target and survives:
                    kept.append(each)
                    continue
                if by_suit:
                    suit = effective_suit(each, suit_rules) if effective else suit_of(numeral)
                    match = suit == target_suit
                else:
                    match = rank_of(numeral) == target_rank
                if match or is_target:
                    removed_cards.append(numeral)
                    removed_cards.extend(each[1])
                else:
                    kept.append(each)
            if len(kept) != len(current):
                self.caravans[index] = tuple(kept)
                changed.append(index)
        for gone in removed_cards:
            self.piles[owner_of(gone)].append(gone)
        if caravan not in changed:
            self._refresh(caravan)
        self._after_removal(tuple(changed), before)
        return tuple(removed_cards)

    def _after_removal(self, changed: Sequence[int], before: list[Summary]) -> None:
        for index in changed:
            caravan = self.caravans[index]
            if self.rules[index // 3].equal_rank_direction == "keep_previous":
                if caravan and ends_in_equal_ranks(caravan):
                    self.held[index] = before[index][4]
                else:
                    self.held[index] = None
            self._refresh(index)

    def _draw(
        self, seat: int, count: int, shuffles: list[tuple[int, tuple[int, ...]]] | None = None
    ) -> None:
        deck, hand = self.decks[seat], self.hands[seat]
        for _ in range(count):
            if not deck:
                pile = self.piles[seat]
                if self.rules[seat].deck_exhaustion != "reshuffle_discards" or not pile:
                    return
                deck.extend(pile)
                pile.clear()
                self.rng.shuffle(deck)
                if shuffles is not None:
                    shuffles.append((seat, tuple(reversed(deck))))
            hand.append(deck.pop())

    # ----------------------------------------------------------- game end

    def lanes(self) -> list[int | None]:
        """The seat taking each lane now (None while undecided)."""
        s, (abc, def_) = self.summaries, self.rules
        return [lane_taker(s[i][0], s[i + 3][0], abc, def_) for i in range(3)]

    def _lane_winner(self) -> int | None:
        summaries, (abc, def_) = self.summaries, self.rules
        abc_lanes = 0
        for lane in range(3):
            taker = lane_taker(summaries[lane][0], summaries[lane + 3][0], abc, def_)
            if taker is None:
                return None
            if taker == 0:
                abc_lanes += 1
        winner = 0 if abc_lanes >= 2 else 1
        won = abc_lanes if winner == 0 else 3 - abc_lanes
        if self.rules[winner].require_all_caravans and won < 3:
            return None
        return winner

    def _end_check(self) -> None:
        hands = self.hands
        empty0, empty1 = not hands[0], not hands[1]
        if not (empty0 or empty1):
            # Both seats hold cards: only the lanes can end the game, and not while the first
            # one is undecided (the usual case, checked before the full count). A lane is
            # undecided at least while neither value is in its owner's sold range.
            summaries, (abc, def_) = self.summaries, self.rules
            first, facing = summaries[0][0], summaries[3][0]
            if ((not abc.sold_min <= first <= abc.sold_max
                 and not def_.sold_min <= facing <= def_.sold_max)
                    or lane_taker(first, facing, abc, def_) is None):
                return
        out = None if empty0 == empty1 else (1 if empty0 else 0)
        lanes_first = self.rules[0].out_of_cards == "after_lanes"
        lane = self._lane_winner() if lanes_first or out is None else None
        if lanes_first and lane is not None:
            self._finish((SEATS[lane],), "lanes")
        elif out is not None:
            self._finish((SEATS[out],), "out_of_cards")
        elif not lanes_first and (lane := self._lane_winner()) is not None:
            self._finish((SEATS[lane],), "lanes")
        elif empty0 and empty1:
            self._finish((), "draw")

    def _finish(self, winners: tuple[str, ...], reason: str) -> None:
        lanes = [None if taker is None else SEATS[taker] for taker in self.lanes()]
        self.result = Result(winners, reason, {"lanes": lanes, "plies": self.plies})

    def abandon(self, cause: str = "quit") -> Result:
        """End the game unfinished (a player quit or input ended)."""
        lanes = [None if taker is None else SEATS[taker] for taker in self.lanes()]
        self.result = Result((), "quit", {"lanes": lanes, "plies": self.plies, "cause": cause})
        return self.result

    # --------------------------------------------------------- observation

    def observation(self, seat: str | int) -> Observation:
        # The match loop asks at every move, by seat number or name: a number is taken at
        # once and a name looked up (exact classes only: True and 1.0 are no seats),
        # anything else goes through seat_index's checks.
        if seat.__class__ is int and (seat == 0 or seat == 1):
            return Observation.of(self, seat)
        kind = seat.__class__
        number = _SEAT_NUMBER.get(seat) if kind is str or kind is int else None
        return Observation.of(self, number if number is not None else seat_index(seat))

    def clone(self) -> CaravanState:
        other = CaravanState.__new__(CaravanState)
        other.caravans = self.caravans[:]
        other.summaries = self.summaries[:]
        other.crowding = self.crowding[:]
        other.held = self.held[:]
        other.hands = [self.hands[0][:], self.hands[1][:]]
        other.decks = [self.decks[0][:], self.decks[1][:]]
        other.piles = [self.piles[0][:], self.piles[1][:]]
        other.placed = self.placed[:]
        other.moves_made = self.moves_made[:]
        other._history = self._history
        other._moves = None  # a clone may be edited before it moves
        other.result = self.result
        rng = self.rng
        other.rng = rng.clone() if isinstance(rng, GameRandom) else rng
        other.rules = self.rules
        other.seat_rules = self.seat_rules
        other.seed = self.seed
        other.turn = self.turn
        other.first = self.first
        other.plies = self.plies
        other.jack_as_joker = self.jack_as_joker
        other.initial_decks = self.initial_decks
        other.mulligans = self.mulligans
        return other


    # --- the compiled core's door

    def export_core(self) -> CoreExport:
        """The game as the compiled core imports it: a flat tuple with the fields
        ``core_export.CORE_FIELDS`` in order (the core reads nothing else)."""
        return export_core(self)

    # --- game API: positions

    def to_position(self) -> str:
        """The whole state as one line of text; ``position.from_position`` restores it."""
        from cardtable.games.caravan.position_writer import to_position

        return to_position(self)

    # --- game API: action indices

    def action_index(self, action: Move) -> int:
        """The fixed index of ``action`` (see ``cardtable.games.caravan.action_index``)."""
        from cardtable.games.caravan import action_index

        return action_index.action_index(self, action)

    def index_action(self, index: int) -> Move:
        """The move of the seat to move at action index ``index``."""
        from cardtable.games.caravan import action_index

        return action_index.index_action(self, index)

    def legal_mask(self) -> bytes:
        """``num_actions`` bytes: 1 at the index of each legal move."""
        from cardtable.games.caravan import action_index

        return action_index.legal_mask(self)

    # --- game API: notation and seats

    def seat_number(self, seat: str | int) -> int:
        """The index of ``seat`` (``ABC``/``DEF`` or 0/1); ``UnknownSeat`` for anything else."""
        return seat_number(seat, SEATS)

    def parse_action(self, text: str) -> Move:
        """The move written ``text`` for the seat to move (``P2B``; ``ABC:P2B`` names the seat).

        Raises :class:`~cardtable.games.caravan.errors.MoveSyntaxError` (a ``NotationError``)
        with the line mode's message for text that is not a move; legality is left to
        :meth:`apply`.
        """
        move = parse_move(text, self.seat_rules, self.turn)
        if move is None:
            raise MoveSyntaxError("A move has not been entered.")
        return move

    def action_text(self, action: Move) -> str:
        """``action`` in notation: ``P2B`` for the seat to move, else with its seat, ``DEF:P2B``."""
        return action.notation if action.seat == self.turn else str(action)

    # --- game API: sampled worlds

    def sample_world(self, seat: str | int, seed: int) -> CaravanState:
        """A full state agreeing with all ``seat`` sees, its unseen cards dealt at random
        (see ``cardtable.games.caravan.worlds``); independent of this one."""
        from cardtable.games.caravan import worlds

        return worlds.sample_world(self, seat_index(seat), seed)
