"""``cardtable.cards`` is the one source of suit letters, rank names and suit glyphs."""

from __future__ import annotations

from cardtable import cards
from cardtable.games.caravan import cards as caravan
from cardtable.games.obsession import cards as obsession
from cardtable.ui.tui import theme


def test_caravan_takes_suits_and_ranks_from_the_shared_names() -> None:
    assert caravan.SUITS is cards.SUIT_LETTERS
    assert caravan.RANK_TEXT[caravan.ACE:caravan.JOKER] == cards.RANK_NAMES
    every_card = caravan.sample_deck(0, 1, 2)
    assert {caravan.code(card) for card in every_card} == {
        rank + suit for rank in cards.RANK_NAMES for suit in cards.SUIT_LETTERS} | {"JO"}


def test_obsession_takes_suits_and_ranks_from_the_shared_names() -> None:
    assert obsession.SUITS == "CDHS" and sorted(obsession.SUITS) == sorted(cards.SUIT_LETTERS)
    assert [obsession.FACE_NAMES[face] for face in range(2, 15)] == [
        *cards.RANK_NAMES[1:], cards.RANK_NAMES[0]]  # the Ace is high
    texts = {obsession.TEXT[card] for card in obsession.canonical_deck(1)}
    assert texts == {rank + suit for rank in cards.RANK_NAMES
                     for suit in cards.SUIT_LETTERS} | {"R"}


def test_the_full_screen_ui_draws_the_shared_glyphs() -> None:
    assert theme.GLYPHS is cards.SUIT_GLYPHS
    assert set(cards.SUIT_GLYPHS) == set(cards.SUIT_LETTERS)
    plain, ascii_only = theme.Theme(ascii_only=False, colour=True), theme.Theme(True, True)
    assert [plain.card(f"10{suit}") for suit in cards.SUIT_LETTERS] == ["10♠", "10♥", "10♦", "10♣"]
    assert ascii_only.card("10H") == "10H" and plain.card("JO") == "JO"
    assert [plain.card_style(f"A{suit}") for suit in "HD"] == ["bright_red"] * 2
