"""Building Obsession positions from card texts, and small shortcuts for tests."""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.games.obsession.actions import Blind, Play
from cardtable.games.obsession.cards import (
    FACE,
    FACE_OF_NAME,
    JOKER,
    MAX_DECKS,
    SUITS,
    TEXT,
    joker,
    suited,
)
from cardtable.games.obsession.events import Event
from cardtable.games.obsession.legality import NONE
from cardtable.games.obsession.render import event_lines
from cardtable.games.obsession.rules import Rules
from cardtable.games.obsession.state import PLAY, ObsessionState, shuffled_deck


class CardPool:
    """Hands out a distinct card id for each text, so that copies get different decks."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def one(self, text: str) -> int:
        if text == "R":
            candidates = [joker(deck, copy) for deck in range(MAX_DECKS) for copy in (0, 1)]
        else:
            face, suit = FACE_OF_NAME[text[:-1]], SUITS.index(text[-1])
            candidates = [suited(face, suit, deck) for deck in range(MAX_DECKS)]
        card = next(c for c in candidates if c not in self.used)
        self.used.add(card)
        return card

    def many(self, texts: str) -> list[int]:
        return [self.one(text) for text in texts.split()]


def position(players: int = 4, *, hands: dict[int, str] | None = None,
             visible: dict[int, str] | None = None, hidden: dict[int, str] | None = None,
             pile: str = "", draw: str = "", to_move: int = 0, direction: int = 1,
             rules: Rules | None = None, humans: Sequence[bool] | None = None,
             out: Sequence[int] = ()) -> ObsessionState:
    """A game in the play phase with exactly these cards. Seats are 0-based; ``pile`` and
    ``draw`` are listed top first; unnamed piles are empty."""
    rules = rules or Rules(players=players)
    game = ObsessionState(rules, shuffled_deck(players, 0), humans or [False] * players)
    pool = CardPool()
    hands, visible, hidden = hands or {}, visible or {}, hidden or {}
    game.hands = [sorted(pool.many(hands.get(s, ""))) for s in range(players)]
    game.visible = [sorted(pool.many(visible.get(s, ""))) for s in range(players)]
    game.hidden = [pool.many(hidden.get(s, "")) for s in range(players)]
    top_first = pool.many(pile)
    game.pile = list(reversed(top_first))
    game._pile_faces = bytearray(FACE[card] for card in game.pile)
    game.draw = list(reversed(pool.many(draw)))
    game.active = next((FACE[c] for c in top_first if FACE[c] != JOKER), NONE)
    game.top_face = FACE[top_first[0]] if top_first else 0
    game.run = 0
    for card in top_first:
        if FACE[card] != game.top_face:
            break
        game.run += 1
    game.phase = PLAY
    game.current = to_move
    game.direction = direction
    for seat in out:
        game.out[seat] = True
        game.placings.append(seat)
        game.remaining -= 1
    game.plays = 1
    game.turns = 1
    return game


def texts(cards: Sequence[int]) -> list[str]:
    return [TEXT[card] for card in cards]


def hand(game: ObsessionState, seat: int) -> list[str]:
    return texts(game.hands[seat])


def pile(game: ObsessionState) -> list[str]:
    """The discard pile, top first."""
    return texts(list(reversed(game.pile)))


def play(game: ObsessionState, names: str) -> Sequence[Event]:
    """Play the cards with these texts from the active pile of the seat to move."""
    seat = game.current
    source = game.hands[seat] + game.visible[seat] + game.hidden[seat]
    chosen: list[int] = []
    for name in names.split():
        chosen.append(next(c for c in source if TEXT[c] == name and c not in chosen))
    return game.apply(Play(tuple(chosen)))


def blind(game: ObsessionState, index: int) -> Sequence[Event]:
    return game.apply(Blind(index))


def lines(events: Sequence[Event], humans: Sequence[bool]) -> list[str]:
    return [line for event in events for line in event_lines(event, humans)]


def all_cards(game: ObsessionState) -> list[int]:
    """Every card the game still knows about, wherever it is (for conservation checks)."""
    cards = [*game.draw, *game.pile, *game.removed, *game.killed]
    for seat in range(game.players):
        cards += game.hands[seat] + game.visible[seat] + game.hidden[seat]
    return cards
