"""The how-to-play page is written from the rules in play: every field shows in its text."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

from cardtable.games.caravan.howto import howto_lines, preset_label, preset_short
from cardtable.games.caravan.rules import FIELD_NAMES, FOXON, NV, POWER, PRESETS, Rules, SeatRules


def page(rules: SeatRules) -> str:
    return "\n".join(howto_lines(rules, width=1000))


# One other value per field, and the base it is varied from (some fields only matter when
# another one leaves room for them: the deck bounds when the size is random, the sample
# bounds when the number of sample decks is derived).
VARIANTS: dict[str, tuple[Rules, object]] = {
    "max_numerals": (POWER, None),
    "max_faces": (POWER, 2),
    "jack_respects_face_cap": (POWER, True),
    "queen_placement": (POWER, "any"),
    "queen_changes_suit": (POWER, False),
    "queen_changes_direction": (POWER, False),
    "king_mode": (POWER, "add"),
    "joker_target_survives": (POWER, False),
    "joker_ace_mode": (POWER, "rank"),
    "joker_ace_suit_test": (POWER, "effective"),
    "jack_is_joker_without_jokers": (POWER, True),
    "equal_rank_direction": (POWER, "any"),
    "faces_on_opponent": (POWER, False),
    "face_must_match_suit": (POWER, True),
    "clear_policy": (POWER, "disabled"),
    "sold_min": (POWER, 20),
    "sold_max": (POWER, 27),
    "require_all_caravans": (POWER, True),
    "opening_mode": (POWER, "none"),
    "mulligan": (POWER, "reshuffle"),
    "hand_size": (POWER, 6),
    "opening_hand_size": (POWER, 7),
    "draw_mode": (POWER, "refill"),
    "deck_exhaustion": (POWER, "reshuffle_discards"),
    "out_of_cards": (POWER, "before_lanes"),
    "deck_size": (POWER, 60),
    "deck_min": (replace(POWER, deck_size=None), 40),
    "deck_max": (replace(POWER, deck_size=None), 100),
    "samples": (POWER, 2),
    "samples_min": (replace(POWER, samples=None), 2),
    "samples_max": (replace(POWER, samples=None), 2),
    "sampling": (POWER, "imbalanced"),
    "jokers_per_sample": (POWER, 0),
}


def test_every_field_has_a_variant() -> None:
    assert set(VARIANTS) == set(FIELD_NAMES)


@pytest.mark.parametrize("field", FIELD_NAMES)
def test_each_field_changes_the_page(field: str) -> None:
    base, value = VARIANTS[field]
    assert getattr(base, field) != value
    varied = replace(base, **{field: value})
    assert page(SeatRules.both(varied)) != page(SeatRules.both(base))


@pytest.mark.parametrize("field", [f.name for f in fields(Rules)
                                   if f.name not in ("opening_mode", "out_of_cards")])
def test_a_seat_override_is_told_per_seat(field: str) -> None:
    base, value = VARIANTS[field]
    text = page(SeatRules(base, replace(base, **{field: value})))
    assert "The two seats play by different rules" in text
    assert "\n  ABC: " in text and "\n  DEF: " in text


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_is_named(name: str) -> None:
    lines = howto_lines(SeatRules.preset(name))
    assert lines[0] == f"How to play Caravan - rules: {name}"
    assert "different rules" not in "\n".join(lines)


def test_preset_texts_follow_their_rules() -> None:
    foxon = page(SeatRules.preset("foxon"))
    assert "Destroy and restart: CB4" in foxon
    assert "The numeral it is played on goes too, with the Joker." in foxon
    assert "discard pile is shuffled into a new deck" in foxon
    assert "only on a numeral of your own caravans" in foxon
    assert "neither sees the other's opening cards" in foxon
    power = page(SeatRules.preset("power"))
    assert "Clear: CA discards all of your caravan A" in power
    assert "King: doubles the numeral's value" in power
    assert "at most 8 numerals" in power
    karavane = page(SeatRules.preset("karavane"))
    assert "No opening round" in karavane
    assert "random number of cards from 30 to 108" in karavane
    nv = page(SeatRules.preset("nv"))
    assert "keeps the direction it had before the removal" in nv


def test_preset_labels() -> None:
    assert preset_label(SeatRules.both(NV)) == "nv"
    assert preset_label(SeatRules.both(replace(FOXON, max_faces=3))) == "foxon, changed: max_faces"
    assert preset_label(SeatRules(POWER, replace(POWER, king_mode="add"))) == \
        "power, changed for DEF: king_mode"
    assert preset_label(SeatRules(POWER, NV)) == "ABC: power; DEF: nv"
    assert preset_short(SeatRules.both(POWER)) == "power"
    assert preset_short(SeatRules(POWER, replace(POWER, max_faces=2))) == "power (changed)"


def test_the_page_is_wrapped() -> None:
    lines = howto_lines(SeatRules.preset("foxon"), width=40)
    assert max(len(line) for line in lines) <= 40


def test_the_face_card_example_is_a_legal_target_under_the_rules() -> None:
    # Where faces go only on your own caravans, the example may not aim at the opponent's.
    foxon = page(SeatRules.preset("foxon"))
    assert "only on a numeral of your own caravans" in foxon
    assert "caravan F" not in foxon
    assert "P4B3 plays hand card 4 on slot 3 of your caravan B (DEF: P4E3 on E)." in foxon
    assert "P4F3 plays hand card 4 on slot 3 of caravan F." in page(SeatRules.preset("power"))
