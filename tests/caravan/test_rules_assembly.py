"""Rules assembly (§2.3): value syntax, presets, precedence, TOML files, validation, JSON."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.games.caravan.errors import RulesError
from cardtable.games.caravan.rules import Rules, SeatRules
from cardtable.games.caravan.rules_assembly import (
    assemble_rules,
    describe_rules,
    parse_field_value,
    rules_from_json,
    rules_to_json,
    validate_seat_rules,
)

# The table of §2.1, transcribed by hand (not derived from rules.py) so that a wrong
# preset value or a field out of order is caught. Columns: power, nv, foxon, karavane.
SPEC_TABLE: dict[str, tuple[object, object, object, object]] = {
    "max_numerals": (8, None, None, 20),
    "max_faces": (3, 3, None, 3),
    "jack_respects_face_cap": (False, True, True, True),
    "queen_placement": ("last", "last", "last", "any"),
    "queen_changes_suit": (True, True, False, True),
    "queen_changes_direction": (True, True, True, True),
    "king_mode": ("double", "double", "add", "double"),
    "joker_target_survives": (True, True, False, True),
    "joker_ace_mode": ("suit", "suit", "rank", "suit"),
    "joker_ace_suit_test": ("printed", "printed", "printed", "effective"),
    "jack_is_joker_without_jokers": (False, False, True, False),
    "equal_rank_direction": ("desc", "keep_previous", "keep_previous", "any"),
    "faces_on_opponent": (True, True, False, True),
    "face_must_match_suit": (False, False, False, False),
    "clear_policy": ("clear", "clear", "destroy_restart", "clear"),
    "sold_min": (21, 21, 21, 21),
    "sold_max": (26, 26, 26, 26),
    "require_all_caravans": (False, False, False, False),
    "opening_mode": ("alternate", "alternate", "simultaneous", "none"),
    "mulligan": ("rebuild", "reshuffle", "reshuffle", "none"),
    "hand_size": (5, 5, 5, 5),
    "opening_hand_size": (None, None, None, None),
    "draw_mode": ("one", "one", "refill", "refill"),
    "deck_exhaustion": ("shrink", "shrink", "reshuffle_discards", "shrink"),
    "out_of_cards": ("after_lanes", "after_lanes", "after_lanes", "before_lanes"),
    "deck_size": (54, 54, 54, None),
    "deck_min": (30, 30, 30, 30),
    "deck_max": (162, 216, 162, 108),
    "samples": (1, 1, 1, None),
    "samples_min": (1, 1, 1, 1),
    "samples_max": (3, 4, 3, 2),
    "sampling": ("balanced", "balanced", "balanced", "pooled"),
    "jokers_per_sample": (2, 2, 2, 2),
}
PRESET_NAMES = ("power", "nv", "foxon", "karavane")
FIELDS_IN_ORDER = ", ".join(SPEC_TABLE)

# The "allowed" column of §2.1 for the enum fields, in the table's order.
SPEC_ENUMS = {
    "queen_placement": ("last", "any"),
    "king_mode": ("double", "add"),
    "joker_ace_mode": ("suit", "rank"),
    "joker_ace_suit_test": ("printed", "effective"),
    "equal_rank_direction": ("desc", "keep_previous", "any"),
    "clear_policy": ("clear", "destroy_restart", "disabled"),
    "opening_mode": ("alternate", "simultaneous", "none"),
    "mulligan": ("rebuild", "reshuffle", "discard", "none"),
    "draw_mode": ("one", "refill"),
    "deck_exhaustion": ("shrink", "reshuffle_discards"),
    "out_of_cards": ("after_lanes", "before_lanes"),
    "sampling": ("balanced", "imbalanced", "pooled"),
}
BOOL_FIELDS = [name for name, values in SPEC_TABLE.items() if isinstance(values[0], bool)]
INT_FIELDS_AT_LEAST_1 = [
    "sold_min", "sold_max", "hand_size", "deck_min", "deck_max", "samples_min", "samples_max",
]
NULLABLE_INT_FIELDS_AT_LEAST_1 = ["max_numerals", "max_faces", "opening_hand_size"]


def message(excinfo: pytest.ExceptionInfo[RulesError]) -> str:
    return str(excinfo.value)


def write(tmp_path: Path, text: str, name: str = "rules.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# --- presets -------------------------------------------------------------------------


@pytest.mark.parametrize("column, preset", list(enumerate(PRESET_NAMES)))
def test_preset_values_match_the_spec_table(column: int, preset: str) -> None:
    rules = assemble_rules(preset)
    assert rules.abc == rules.def_
    actual = {name: getattr(rules.abc, name) for name in SPEC_TABLE}
    expected = {name: values[column] for name, values in SPEC_TABLE.items()}
    assert actual == expected


def test_rules_fields_are_exactly_the_spec_fields_in_table_order() -> None:
    assert tuple(rules_to_json(Rules())) == tuple(SPEC_TABLE)


def test_default_preset_is_power() -> None:
    assert assemble_rules() == assemble_rules("power")
    assert assemble_rules().abc.max_numerals == 8


@pytest.mark.parametrize("name", ["POWER", "classic", "", "nv "])
def test_unknown_preset(name: str) -> None:
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(name)
    assert message(excinfo) == (
        f"Unknown rules preset '{name}' (allowed: power, nv, foxon, karavane)."
    )


# --- values ----------------------------------------------------------------------------


def test_unknown_field_lists_every_field_in_table_order() -> None:
    with pytest.raises(RulesError) as excinfo:
        parse_field_value("max_cards", "3")
    assert message(excinfo) == f"Unknown rule field 'max_cards' (allowed: {FIELDS_IN_ORDER})."


def test_field_names_are_exact() -> None:
    with pytest.raises(RulesError, match="Unknown rule field 'Max_Faces'"):
        parse_field_value("Max_Faces", "3")
    with pytest.raises(RulesError, match="Unknown rule field 'max-faces'"):
        parse_field_value("max-faces", "3")


@pytest.mark.parametrize(
    "text, expected",
    [
        ("true", True), ("false", False), ("yes", True), ("no", False), ("on", True),
        ("off", False), ("1", True), ("0", False), ("TRUE", True), ("No", False),
        ("oN", True), (" off ", False),
    ],
)
@pytest.mark.parametrize("field", BOOL_FIELDS)
def test_boolean_spellings(field: str, text: str, expected: bool) -> None:
    assert parse_field_value(field, text) is expected


@pytest.mark.parametrize("text", ["2", "y", "none", "", "truee", "-1"])
def test_invalid_boolean(text: str) -> None:
    with pytest.raises(RulesError) as excinfo:
        parse_field_value("faces_on_opponent", text)
    assert message(excinfo) == (
        f"Invalid value '{text}' for rule field 'faces_on_opponent' (allowed: true, false)."
    )


@pytest.mark.parametrize("field", INT_FIELDS_AT_LEAST_1)
def test_integers_at_least_one(field: str) -> None:
    assert parse_field_value(field, "1") == 1
    assert parse_field_value(field, "162") == 162
    assert parse_field_value(field, "+7") == 7
    for bad in ("0", "-3", "none", "1.5", "ten", "", "0x10", "1_000"):
        with pytest.raises(RulesError) as excinfo:
            parse_field_value(field, bad)
        assert message(excinfo) == (
            f"Invalid value '{bad}' for rule field '{field}' (allowed: integer >= 1)."
        )


@pytest.mark.parametrize("field", NULLABLE_INT_FIELDS_AT_LEAST_1)
def test_nullable_integers(field: str) -> None:
    assert parse_field_value(field, "none") is None
    assert parse_field_value(field, "None") is None
    assert parse_field_value(field, "4") == 4
    with pytest.raises(RulesError) as excinfo:
        parse_field_value(field, "0")
    assert message(excinfo) == (
        f"Invalid value '0' for rule field '{field}' (allowed: integer >= 1 or none)."
    )


@pytest.mark.parametrize("field", ["deck_size", "samples"])
def test_deck_size_and_samples_take_any_integer(field: str) -> None:
    # Their ranges are checked by the deck checks, which have their own messages.
    assert parse_field_value(field, "0") == 0
    assert parse_field_value(field, "-5") == -5
    assert parse_field_value(field, "500") == 500
    assert parse_field_value(field, "none") is None
    with pytest.raises(RulesError) as excinfo:
        parse_field_value(field, "lots")
    assert message(excinfo) == (
        f"Invalid value 'lots' for rule field '{field}' (allowed: integer or none)."
    )


def test_jokers_per_sample_range() -> None:
    assert [parse_field_value("jokers_per_sample", t) for t in ("0", "1", "2")] == [0, 1, 2]
    for bad in ("3", "-1", "none"):
        with pytest.raises(RulesError) as excinfo:
            parse_field_value("jokers_per_sample", bad)
        assert message(excinfo) == (
            f"Invalid value '{bad}' for rule field 'jokers_per_sample' (allowed: integer 0..2)."
        )


@pytest.mark.parametrize("field, choices", list(SPEC_ENUMS.items()))
def test_enum_values(field: str, choices: tuple[str, ...]) -> None:
    for choice in choices:
        assert parse_field_value(field, choice) == choice
        assert parse_field_value(field, choice.replace("_", "-")) == choice
        assert parse_field_value(field, choice.upper()) == choice
    with pytest.raises(RulesError) as excinfo:
        parse_field_value(field, "bogus")
    assert message(excinfo) == (
        f"Invalid value 'bogus' for rule field '{field}' (allowed: {', '.join(choices)})."
    )


def test_enum_none_is_a_value_not_a_null() -> None:
    assert parse_field_value("opening_mode", "none") == "none"
    with pytest.raises(RulesError, match="Invalid value 'none' for rule field 'sampling'"):
        parse_field_value("sampling", "none")


# --- overrides ----------------------------------------------------------------------------


def test_shared_override_applies_to_both_seats() -> None:
    rules = assemble_rules(overrides=["max_faces=5", "queen_placement=any"])
    assert rules.abc == rules.def_
    assert rules.abc.max_faces == 5
    assert rules.abc.queen_placement == "any"


@pytest.mark.parametrize("prefix", ["abc", "ABC", "Abc"])
def test_seat_prefix_is_case_insensitive(prefix: str) -> None:
    rules = assemble_rules(overrides=[f"{prefix}.require_all_caravans=yes"])
    assert rules.abc.require_all_caravans is True
    assert rules.def_.require_all_caravans is False


def test_def_prefix_changes_only_def() -> None:
    rules = assemble_rules(overrides=["DEF.sold_max=28"])
    assert (rules.abc.sold_max, rules.def_.sold_max) == (26, 28)


def test_later_override_wins() -> None:
    rules = assemble_rules(overrides=["max_faces=5", "max_faces=none"])
    assert rules.abc.max_faces is None


def test_seat_override_beats_shared_override_given_later() -> None:
    rules = assemble_rules(overrides=["abc.max_faces=1", "max_faces=4"])
    assert (rules.abc.max_faces, rules.def_.max_faces) == (1, 4)


def test_override_whitespace_around_parts_is_ignored() -> None:
    rules = assemble_rules(overrides=[" max_faces = 2 "])
    assert rules.abc.max_faces == 2


@pytest.mark.parametrize("text", ["max_faces", "=3", "", "abc.=3", "max_faces:3"])
def test_invalid_override(text: str) -> None:
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(overrides=[text])
    assert message(excinfo) == f"Invalid rule override '{text}' (expected FIELD=VALUE)."


@pytest.mark.parametrize("text, prefix", [("ghi.max_faces=3", "ghi"), ("A.b.c=1", "A")])
def test_unknown_seat_prefix(text: str, prefix: str) -> None:
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(overrides=[text])
    assert message(excinfo) == f"Unknown seat prefix '{prefix}' in '{text}' (allowed: abc, def)."


def test_override_with_unknown_field_or_value() -> None:
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(overrides=["def.max_jokers=1"])
    assert message(excinfo) == f"Unknown rule field 'max_jokers' (allowed: {FIELDS_IN_ORDER})."
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(overrides=["king_mode=triple"])
    assert message(excinfo) == (
        "Invalid value 'triple' for rule field 'king_mode' (allowed: double, add)."
    )


def test_first_bad_override_is_reported() -> None:
    with pytest.raises(RulesError, match=r"^Invalid value 'x' for rule field 'max_faces'"):
        assemble_rules(overrides=["max_faces=x", "nonsense"])
    with pytest.raises(RulesError, match=r"^Invalid rule override 'nonsense'"):
        assemble_rules(overrides=["nonsense", "max_faces=x"])


# --- precedence -------------------------------------------------------------------------


def test_precedence_every_level(tmp_path: Path) -> None:
    """Each layer beats the one before it, for the same field (``deck_size``)."""
    path = write(
        tmp_path,
        'preset = "nv"\n[rules]\ndeck_size = 40\nsamples = 2\n'
        "[abc]\ndeck_size = 41\n[def]\nsampling = \"pooled\"\n",
    )
    only_file = assemble_rules(rules_file=path)
    assert only_file.abc.max_numerals is None  # the file's preset: nv
    assert only_file.abc.deck_max == 216
    assert (only_file.abc.deck_size, only_file.def_.deck_size) == (41, 40)  # [abc] > [rules]
    assert (only_file.abc.samples, only_file.def_.samples) == (2, 2)
    assert (only_file.abc.sampling, only_file.def_.sampling) == ("balanced", "pooled")

    with_options = assemble_rules(rules_file=path, cards=42, imbalanced=True)
    assert (with_options.abc.deck_size, with_options.def_.deck_size) == (42, 42)  # -c > [abc]
    assert with_options.def_.sampling == "imbalanced"  # -i > [def]
    assert with_options.abc.samples == 2  # -s not given: the file stands

    shared = assemble_rules(rules_file=path, cards=42, overrides=["deck_size=43"])
    assert (shared.abc.deck_size, shared.def_.deck_size) == (43, 43)  # --rule > -c

    seat = assemble_rules(
        rules_file=path, cards=42, overrides=["def.deck_size=44", "deck_size=43"]
    )
    assert (seat.abc.deck_size, seat.def_.deck_size) == (43, 44)  # seat --rule > --rule


def test_preset_argument_beats_file_preset(tmp_path: Path) -> None:
    path = write(tmp_path, 'preset = "nv"\n')
    assert assemble_rules("foxon", rules_file=path) == SeatRules.preset("foxon")


def test_file_without_preset_starts_from_power(tmp_path: Path) -> None:
    path = write(tmp_path, "[rules]\nmax_faces = 4\n")
    assert assemble_rules(rules_file=path).abc == replace(Rules(), max_faces=4)


def test_file_tables_beat_preset_argument(tmp_path: Path) -> None:
    path = write(tmp_path, "[rules]\nqueen_placement = \"any\"\n")
    assert assemble_rules("power", rules_file=path).abc.queen_placement == "any"


def test_command_line_options_map_to_fields() -> None:
    rules = assemble_rules("karavane", cards=60, samples=2, imbalanced=True)
    for seat in rules.as_tuple():
        assert (seat.deck_size, seat.samples, seat.sampling) == (60, 2, "imbalanced")
    untouched = assemble_rules("karavane")
    assert untouched.abc.sampling == "pooled" and untouched.abc.deck_size is None


def test_command_line_options_accept_out_of_range_numbers() -> None:
    # "-c 20" is the deck check's business (§8 order), not a rules error.
    assert assemble_rules(cards=20, samples=9).abc.deck_size == 20


# --- TOML files -------------------------------------------------------------------------


def test_toml_values_of_every_kind(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "[rules]\n"
        "max_numerals = \"none\"\n"
        "jack_respects_face_cap = true\n"
        "equal_rank_direction = \"keep-previous\"\n"
        "sold_max = 27\n"
        "[def]\n"
        "max_faces = \"NONE\"\n",
    )
    rules = assemble_rules(rules_file=path)
    assert rules.abc == replace(
        Rules(),
        max_numerals=None,
        jack_respects_face_cap=True,
        equal_rank_direction="keep_previous",
        sold_max=27,
    )
    assert rules.def_ == replace(rules.abc, max_faces=None)


def test_rules_file_missing(tmp_path: Path) -> None:
    path = str(tmp_path / "absent.toml")
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(rules_file=path)
    assert message(excinfo) == (
        f"Cannot read rules file '{path}': No such file or directory."
    )


def test_rules_file_is_a_directory(tmp_path: Path) -> None:
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(rules_file=str(tmp_path))
    assert message(excinfo) == f"Cannot read rules file '{tmp_path}': Is a directory."


def test_rules_file_invalid_toml(tmp_path: Path) -> None:
    path = write(tmp_path, "[rules\nmax_faces = 3\n")
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(rules_file=path)
    text = message(excinfo)
    assert text.startswith(f"Invalid TOML in rules file '{path}': ")
    assert "line 1" in text
    assert text.endswith(".") and not text.endswith("..")


def test_rules_file_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes('preset = "nv" # caf\xe9\n'.encode("latin-1"))
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(rules_file=str(path))
    assert message(excinfo) == f"Invalid TOML in rules file '{path}': not valid UTF-8."


@pytest.mark.parametrize("key", ["presets", "Rules", "ABC", "ghi", "max_faces"])
def test_rules_file_unknown_key(tmp_path: Path, key: str) -> None:
    path = write(tmp_path, f"{key} = 1\n")
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(rules_file=path)
    assert message(excinfo) == (
        f"Unknown key '{key}' in rules file '{path}' (allowed: preset, rules, abc, def)."
    )


def test_rules_file_section_must_be_a_table(tmp_path: Path) -> None:
    path = write(tmp_path, "rules = 3\n")
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(rules_file=path)
    assert message(excinfo) == f"Invalid TOML in rules file '{path}': 'rules' must be a table."


def test_rules_file_unknown_preset(tmp_path: Path) -> None:
    path = write(tmp_path, 'preset = "vegas"\n')
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(rules_file=path)
    assert message(excinfo) == (
        "Unknown rules preset 'vegas' (allowed: power, nv, foxon, karavane)."
    )
    # The file is broken on its own, so --rules does not hide the problem.
    with pytest.raises(RulesError, match="'vegas'"):
        assemble_rules("nv", rules_file=path)
    non_string = write(tmp_path, "preset = 2\n", "two.toml")
    with pytest.raises(RulesError, match="Unknown rules preset '2'"):
        assemble_rules(rules_file=non_string)


def test_rules_file_unknown_field(tmp_path: Path) -> None:
    path = write(tmp_path, "[abc]\nmax_cards = 3\n")
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(rules_file=path)
    assert message(excinfo) == f"Unknown rule field 'max_cards' (allowed: {FIELDS_IN_ORDER})."


@pytest.mark.parametrize(
    "line, shown, allowed",
    [
        ("max_faces = true", "true", "integer >= 1 or none"),
        ("max_faces = \"3\"", "3", "integer >= 1 or none"),
        ("max_faces = 0", "0", "integer >= 1 or none"),
        ("max_faces = 2.5", "2.5", "integer >= 1 or none"),
        ("hand_size = \"none\"", "none", "integer >= 1"),
        ("faces_on_opponent = 1", "1", "true, false"),
        ("faces_on_opponent = \"yes\"", "yes", "true, false"),
        ("king_mode = 2", "2", "double, add"),
        ("king_mode = [\"add\"]", "[\"add\"]", "double, add"),
        ("jokers_per_sample = 3", "3", "integer 0..2"),
    ],
)
def test_rules_file_value_of_wrong_type(
    tmp_path: Path, line: str, shown: str, allowed: str
) -> None:
    field = line.split(" = ")[0]
    path = write(tmp_path, f"[rules]\n{line}\n")
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(rules_file=path)
    assert message(excinfo) == (
        f"Invalid value '{shown}' for rule field '{field}' (allowed: {allowed})."
    )


# --- validation ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "field, value", [("opening_mode", "none"), ("out_of_cards", "before-lanes")]
)
def test_global_fields_must_match(field: str, value: str) -> None:
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(overrides=[f"def.{field}={value}"])
    assert message(excinfo) == f"Rule field '{field}' must be the same for both seats."
    # The same value for both seats is fine.
    assemble_rules(overrides=[f"{field}={value}"])


@pytest.mark.parametrize(
    "overrides, expected",
    [
        (["deck_min=40", "deck_max=30"],
         "Rule field 'deck_min' (40) must not be greater than 'deck_max' (30)."),
        (["sold_min=27"], "Rule field 'sold_min' (27) must not be greater than 'sold_max' (26)."),
        (["samples_min=4"],
         "Rule field 'samples_min' (4) must not be greater than 'samples_max' (3)."),
    ],
)
def test_inverted_ranges_are_rejected(overrides: list[str], expected: str) -> None:
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(overrides=overrides)
    assert message(excinfo) == expected


def test_equal_range_bounds_are_fine() -> None:
    rules = assemble_rules(overrides=["sold_min=26", "deck_min=54", "deck_max=54"])
    assert (rules.abc.sold_min, rules.abc.deck_min, rules.abc.deck_max) == (26, 54, 54)


def test_inverted_range_of_one_seat_names_it() -> None:
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(overrides=["def.sold_min=30"])
    assert message(excinfo) == (
        "DEF: Rule field 'sold_min' (30) must not be greater than 'sold_max' (26)."
    )
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(overrides=["abc.deck_max=20"])
    assert message(excinfo) == (
        "ABC: Rule field 'deck_min' (30) must not be greater than 'deck_max' (20)."
    )


def test_same_failure_in_both_differing_seats_is_not_prefixed() -> None:
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(overrides=["deck_max=20", "def.max_faces=1"])
    assert message(excinfo) == (
        "Rule field 'deck_min' (30) must not be greater than 'deck_max' (20)."
    )


def test_different_failures_in_both_seats_report_abc_first() -> None:
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(overrides=["abc.deck_max=20", "def.deck_max=25"])
    assert message(excinfo) == (
        "ABC: Rule field 'deck_min' (30) must not be greater than 'deck_max' (20)."
    )


def test_opening_hand_needs_three_cards() -> None:
    expected = "Rule field 'opening_hand_size' must be at least 3 when opening_mode is not none."
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(overrides=["opening_hand_size=2"])
    assert message(excinfo) == expected
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(overrides=["abc.opening_hand_size=2"])
    assert message(excinfo) == "ABC: " + expected
    # Without an opening there is nothing to place, so a small hand is allowed.
    assert assemble_rules("karavane", overrides=["opening_hand_size=2"]).abc.opening_hand == 2
    assert assemble_rules(overrides=["opening_hand_size=3"]).abc.opening_hand == 3


def test_deck_min_covers_the_opening_hand() -> None:
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(overrides=["opening_hand_size=40"])
    assert message(excinfo) == "Rule field 'deck_min' must be at least the opening hand size (40)."
    with pytest.raises(RulesError) as excinfo:
        assemble_rules(overrides=["def.hand_size=30"])  # opening hand = hand_size + 3 = 33
    assert message(excinfo) == (
        "DEF: Rule field 'deck_min' must be at least the opening hand size (33)."
    )
    assemble_rules(overrides=["opening_hand_size=30"])


def test_validate_rejects_values_built_in_code() -> None:
    with pytest.raises(RulesError) as excinfo:
        validate_seat_rules(SeatRules(Rules(), replace(Rules(), max_faces=0)))
    assert message(excinfo) == (
        "DEF: Invalid value '0' for rule field 'max_faces' (allowed: integer >= 1 or none)."
    )


def test_validate_accepts_every_preset() -> None:
    for name in PRESET_NAMES:
        validate_seat_rules(SeatRules.preset(name))


# --- JSON and description --------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_json_round_trip(preset: str) -> None:
    rules = SeatRules.preset(preset).abc
    data = json.loads(json.dumps(rules_to_json(rules)))
    assert list(data) == list(SPEC_TABLE)
    assert rules_from_json(data) == rules


def test_json_uses_null_for_none() -> None:
    data = rules_to_json(SeatRules.preset("karavane").abc)
    assert data["deck_size"] is None and data["samples"] is None
    assert data["opening_mode"] == "none"


def test_rules_from_json_is_strict() -> None:
    good = rules_to_json(Rules())
    with pytest.raises(RulesError, match="Unknown rule field 'colour'"):
        rules_from_json({**good, "colour": "red"})
    missing = dict(good)
    del missing["sampling"]
    with pytest.raises(RulesError) as excinfo:
        rules_from_json(missing)
    assert message(excinfo) == "Missing rule field 'sampling'."
    with pytest.raises(RulesError) as excinfo:
        rules_from_json({**good, "max_faces": True})
    assert message(excinfo) == (
        "Invalid value 'true' for rule field 'max_faces' (allowed: integer >= 1 or none)."
    )
    with pytest.raises(RulesError, match="Invalid value 'keep-previous'"):
        rules_from_json({**good, "equal_rank_direction": "keep-previous"})  # no aliases here
    with pytest.raises(RulesError, match="Invalid value 'none' for rule field 'hand_size'"):
        rules_from_json({**good, "hand_size": None})
    with pytest.raises(RulesError, match="Invalid value '1' for rule field 'queen_changes_suit'"):
        rules_from_json({**good, "queen_changes_suit": 1})
    with pytest.raises(RulesError) as excinfo:
        rules_from_json([good])
    assert message(excinfo) == "Rules must be a JSON object of rule fields."


def test_describe_rules() -> None:
    lines = describe_rules(SeatRules.preset("karavane").abc)
    assert [line.split(" = ")[0] for line in lines] == list(SPEC_TABLE)
    assert "max_numerals = 20" in lines
    assert "queen_changes_suit = true" in lines
    assert "opening_hand_size = none (8)" in lines
    assert "samples = none (2)" in lines
    assert "deck_size = none (random 30..108)" in lines
    assert "sampling = pooled" in lines
    assert "max_faces = none" in describe_rules(SeatRules.preset("foxon").abc)


def _value_strategy(name: str) -> st.SearchStrategy[object]:
    power = SPEC_TABLE[name][0]
    if name in SPEC_ENUMS:
        return st.sampled_from(SPEC_ENUMS[name])
    if isinstance(power, bool):
        return st.booleans()
    if name == "jokers_per_sample":
        return st.integers(0, 2)
    low = None if name in ("deck_size", "samples") else 1
    ints = st.integers(min_value=low, max_value=10_000)
    nullable = any(values is None for values in SPEC_TABLE[name]) or name.startswith("max_")
    return st.one_of(st.none(), ints) if nullable else ints


@given(st.data())
def test_described_values_parse_back(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(list(SPEC_TABLE)))
    value = data.draw(_value_strategy(name))
    rules = replace(Rules(), **{name: value})
    line = describe_rules(rules)[list(SPEC_TABLE).index(name)]
    text = line.split(" = ", 1)[1].split(" (")[0]
    assert parse_field_value(name, text) == value
    assert rules_from_json(json.loads(json.dumps(rules_to_json(rules)))) == rules
