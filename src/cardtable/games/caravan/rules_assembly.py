"""Assembling both seats' rules from a preset, a TOML file and command-line overrides (§2.3).

Every error is a :class:`RulesError` whose text is exactly what the command line prints.
Value syntax (shared by ``--rule`` and the text forms of this module):

- integers in decimal (an optional sign, ASCII digits);
- booleans ``true/false/yes/no/on/off/1/0``; the message lists only ``true, false``, the
  canonical spellings, the others being aliases the way ``-`` is an alias of ``_``;
- ``none`` for nullable fields;
- enum values as the lowercase names of the :mod:`rules` ``Literal`` types, ``-`` for ``_``.

Values are case-insensitive. Field names are exact; the ``abc.``/``def.`` seat prefix of an
override is not. Preset names and the keys of a rules file are exact lowercase names.
"""

from __future__ import annotations

import re
import tomllib
import types
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, get_args, get_origin, get_type_hints

from cardtable.engine.bounded_read import MEBIBYTE, FileTooLarge, read_bounded
from cardtable.engine.one_line import one_line
from cardtable.games.caravan.deck import (
    check_deck_size,
    check_samples,
    check_supply,
    per_seat_message,
    resolved_samples,
)
from cardtable.games.caravan.errors import RulesError
from cardtable.games.caravan.rules import (
    DEFAULT_PRESET,
    FIELD_NAMES,
    GLOBAL_FIELDS,
    PRESETS,
    Rules,
    SeatRules,
)

SEAT_NAMES = ("abc", "def")
FILE_KEYS = ("preset", "rules", "abc", "def")

_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})
_INTEGER = re.compile(r"[+-]?[0-9]+")
# No count or score needs 19 digits, and the compiled cores hold them in 64 bits.
_INTEGER_CEILING = 10**18
MAX_RULES_FILE_BYTES = MEBIBYTE
"""A rules file is a few dozen lines; this only stops files that never end."""

# Integer bounds are not expressible in the type hints, so they live here. Every other int
# field is a count or a score that must be at least 1. ``deck_size`` and ``samples`` take
# any integer: out-of-range values are reported by the deck checks of §6.1 with their own
# messages ("Caravan decks must have between ..."), which must also work for ``-c``/``-s``.
_INT_BOUNDS: dict[str, tuple[int | None, int | None]] = {
    "deck_size": (None, None),
    "samples": (None, None),
    "jokers_per_sample": (0, 2),
}

_RANGES = (("sold_min", "sold_max"), ("deck_min", "deck_max"), ("samples_min", "samples_max"))


@dataclass(frozen=True, slots=True)
class _Domain:
    """What one rules field accepts, derived from its type hint in ``Rules``."""

    kind: Literal["bool", "int", "enum"]
    nullable: bool
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()

    @property
    def allowed(self) -> str:
        """The "(allowed: ...)" part of the invalid-value message."""
        if self.kind == "bool":
            return "true, false"
        if self.kind == "enum":
            return ", ".join(self.choices)
        if self.low is not None and self.high is not None:
            text = f"integer {self.low}..{self.high}"
        elif self.low is not None:
            text = f"integer >= {self.low}"
        else:
            text = "integer"
        return text + " or none" if self.nullable else text

    def accepts(self, value: object) -> bool:
        """Whether ``value`` (a Python value, not text) is a legal value of the field."""
        if value is None:
            return self.nullable
        if self.kind == "bool":
            return isinstance(value, bool)
        if self.kind == "enum":
            return isinstance(value, str) and value in self.choices
        # bool is a subclass of int, but True is not a count.
        if not isinstance(value, int) or isinstance(value, bool):
            return False
        if (self.low is not None or self.high is not None) and abs(value) >= _INTEGER_CEILING:
            # A count past 64 bits is refused here; deck_size and samples take any integer
            # and leave out-of-range values to the deck checks' own messages.
            return False
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


def _domain_of(name: str, hint: object) -> _Domain:
    args = get_args(hint)
    nullable = isinstance(hint, types.UnionType) and type(None) in args
    if nullable:
        (hint,) = (arg for arg in args if arg is not type(None))
    if hint is bool:
        return _Domain("bool", nullable)
    if hint is int:
        low, high = _INT_BOUNDS.get(name, (1, None))
        return _Domain("int", nullable, low, high)
    if get_origin(hint) is Literal:
        return _Domain("enum", nullable, choices=tuple(str(arg) for arg in get_args(hint)))
    raise TypeError(f"Rules field {name!r} has a type rules assembly does not know: {hint!r}")


_HINTS = get_type_hints(Rules)
_DOMAINS: dict[str, _Domain] = {name: _domain_of(name, _HINTS[name]) for name in FIELD_NAMES}


def value_text(value: object) -> str:
    """A value as rule options write it (TOML spelling: ``none``, ``true``, ``8``,
    ``keep_previous``), for messages, help screens and the rules pages."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return one_line(value)
    if isinstance(value, list):
        return "[" + ", ".join(_render_nested(item) for item in value) + "]"
    if isinstance(value, dict):
        pairs = (f"{key} = {_render_nested(item)}" for key, item in value.items())
        return "{" + ", ".join(pairs) + "}"
    return str(value)


def _render_nested(value: object) -> str:
    return f'"{one_line(value)}"' if isinstance(value, str) else value_text(value)


def _unknown_field(name: str) -> RulesError:
    return RulesError(f"Unknown rule field '{one_line(name)}' (allowed: {', '.join(FIELD_NAMES)}).")


def _invalid_value(name: str, shown: str) -> RulesError:
    return RulesError(
        f"Invalid value '{one_line(shown)}' for rule field '{name}' "
        f"(allowed: {_DOMAINS[name].allowed})."
    )


def _domain(name: str) -> _Domain:
    domain = _DOMAINS.get(name)
    if domain is None:
        raise _unknown_field(name)
    return domain


def parse_field_value(field: str, text: str) -> object:
    """The value of rules field ``field`` written as ``text`` (``--rule`` syntax, §2.3).

    Raises :class:`RulesError` for an unknown field or a value the field does not accept.
    """
    domain = _domain(field)
    word = text.strip().lower()
    if domain.nullable and word == "none":
        return None
    value: object
    if domain.kind == "bool":
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
        raise _invalid_value(field, text)
    if domain.kind == "enum":
        value = word.replace("-", "_")
    elif _INTEGER.fullmatch(word):
        try:
            value = int(word)
        except ValueError:  # more digits than int() converts from text
            raise _invalid_value(field, text) from None
    else:
        raise _invalid_value(field, text)
    if not domain.accepts(value):
        raise _invalid_value(field, text)
    return value


def _toml_value(name: str, value: object) -> object:
    """A field value from a TOML table: native TOML types, or ``"none"`` for nullable fields."""
    domain = _domain(name)
    if isinstance(value, str) and (domain.kind == "enum" or value.strip().lower() == "none"):
        return parse_field_value(name, value)
    if isinstance(value, str) or not domain.accepts(value):
        raise _invalid_value(name, value_text(value))
    return value


@dataclass(frozen=True, slots=True)
class _RulesFile:
    preset: str | None = None
    shared: dict[str, object] = field(default_factory=dict)
    seats: tuple[dict[str, object], dict[str, object]] = field(default_factory=lambda: ({}, {}))


def _read_rules_file(path: str) -> _RulesFile:
    try:
        raw = read_bounded(path, MAX_RULES_FILE_BYTES)
    except OSError as error:
        reason = error.strerror or str(error)
        raise RulesError(f"Cannot read rules file '{path}': {reason}.") from error
    except FileTooLarge as error:
        raise RulesError(f"Cannot read rules file '{path}': {error.reason}.") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise RulesError(f"Invalid TOML in rules file '{path}': not valid UTF-8.") from error
    except tomllib.TOMLDecodeError as error:
        reason = str(error).rstrip(".")
        raise RulesError(f"Invalid TOML in rules file '{path}': {reason}.") from error
    except ValueError as error:
        # tomllib lets int() refuse an integer of more digits than Python converts.
        raise RulesError(
            f"Invalid TOML in rules file '{path}': an integer has too many digits."
        ) from error

    for key in data:
        if key not in FILE_KEYS:
            raise RulesError(
                f"Unknown key '{one_line(key)}' in rules file '{path}' "
                f"(allowed: {', '.join(FILE_KEYS)})."
            )
    preset = data.get("preset")
    if preset is not None:
        if not isinstance(preset, str):
            raise _unknown_preset(value_text(preset))
        # A wrong preset in the file is reported even when --rules overrides it: the file is
        # broken and would fail as soon as it is used alone.
        _preset_rules(preset)

    def table(key: str) -> dict[str, object]:
        section = data.get(key, {})
        if not isinstance(section, dict):
            raise RulesError(f"Invalid TOML in rules file '{path}': '{key}' must be a table.")
        return {name: _toml_value(name, value) for name, value in section.items()}

    return _RulesFile(preset, table("rules"), (table("abc"), table("def")))


def _unknown_preset(name: str) -> RulesError:
    return RulesError(f"Unknown rules preset '{one_line(name)}' (allowed: {', '.join(PRESETS)}).")


def _preset_rules(name: str) -> Rules:
    rules = PRESETS.get(name)
    if rules is None:
        raise _unknown_preset(name)
    return rules


def _parse_override(text: str) -> tuple[int | None, str, object]:
    """``FIELD=VALUE`` or ``abc.FIELD=VALUE`` as (seat or None for both, field, value)."""
    target, sep, value_text = text.partition("=")
    target = target.strip()
    if not sep or not target:
        raise RulesError(f"Invalid rule override '{text}' (expected FIELD=VALUE).")
    seat: int | None = None
    prefix, dot, name = target.partition(".")
    if dot:
        if prefix.lower() not in SEAT_NAMES:
            raise RulesError(
                f"Unknown seat prefix '{prefix}' in '{text}' (allowed: {', '.join(SEAT_NAMES)})."
            )
        seat = SEAT_NAMES.index(prefix.lower())
        if not name:
            raise RulesError(f"Invalid rule override '{text}' (expected FIELD=VALUE).")
    else:
        name = target
    return seat, name, parse_field_value(name, value_text.strip())


def assemble_rules(
    preset: str | None = None,
    rules_file: str | None = None,
    overrides: Sequence[str] = (),
    cards: int | None = None,
    samples: int | None = None,
    imbalanced: bool = False,
) -> SeatRules:
    """Both seats' rules from the command-line inputs, validated (§2.3).

    Layers, each overriding the ones before: the preset (``preset``, else the file's
    ``preset``, else ``power``); the file's ``[rules]``; its ``[abc]``/``[def]``;
    ``cards``/``samples``/``imbalanced`` (``-c``/``-s``/``-i``) for both seats; shared
    ``overrides``; seat-prefixed ``overrides``. Overrides apply in the order given within
    their layer, so a later one wins.
    """
    base = _preset_rules(preset) if preset is not None else None
    loaded = _read_rules_file(rules_file) if rules_file is not None else _RulesFile()
    if base is None:
        base = _preset_rules(loaded.preset or DEFAULT_PRESET)
    parsed = [_parse_override(text) for text in overrides]

    options: dict[str, object] = {}
    if cards is not None:
        options["deck_size"] = cards
    if samples is not None:
        options["samples"] = samples
    if imbalanced:
        options["sampling"] = "imbalanced"
    shared = {name: value for seat, name, value in parsed if seat is None}

    seats: list[Rules] = []
    for index in (0, 1):
        own = {name: value for seat, name, value in parsed if seat == index}
        changes: dict[str, Any] = {
            **loaded.shared,
            **loaded.seats[index],
            **options,
            **shared,
            **own,
        }
        seats.append(replace(base, **changes))
    result = SeatRules(seats[0], seats[1])
    validate_seat_rules(result)
    return result


def _value_error(rules: Rules) -> str | None:
    for name in FIELD_NAMES:
        value = getattr(rules, name)
        if not _DOMAINS[name].accepts(value):
            return str(_invalid_value(name, value_text(value)))
    return None


def _range_error(rules: Rules, low_name: str, high_name: str) -> str | None:
    low, high = getattr(rules, low_name), getattr(rules, high_name)
    if low <= high:
        return None
    return f"Rule field '{low_name}' ({low}) must not be greater than '{high_name}' ({high})."


def _opening_hand_error(rules: Rules) -> str | None:
    if rules.opening_mode == "none" or rules.opening_hand >= 3:
        return None
    return "Rule field 'opening_hand_size' must be at least 3 when opening_mode is not none."


def _deck_min_error(rules: Rules) -> str | None:
    if rules.deck_min >= rules.opening_hand:
        return None
    return f"Rule field 'deck_min' must be at least the opening hand size ({rules.opening_hand})."


def validate_seat_rules(rules: SeatRules) -> None:
    """Raise :class:`RulesError` for the first problem with the pair of rules, else nothing.

    Checks, in order: every value is one its field accepts; the global fields (§2.2 scope G)
    agree; no inverted ``sold_*``, ``deck_*`` or ``samples_*`` range (rejected, never
    swapped); an opening hand of at least 3 cards unless ``opening_mode`` is ``none``; a
    ``deck_min`` that covers the opening hand. All but the global check are per seat: when
    the seats' rules differ and only one seat fails, the message names it ("ABC: ...").
    """
    problem = per_seat_message(rules, (_value_error(rules.abc), _value_error(rules.def_)))
    if problem is not None:
        raise RulesError(problem)
    for name in GLOBAL_FIELDS:
        if getattr(rules.abc, name) != getattr(rules.def_, name):
            raise RulesError(f"Rule field '{name}' must be the same for both seats.")
    for low_name, high_name in _RANGES:
        problem = per_seat_message(
            rules,
            (
                _range_error(rules.abc, low_name, high_name),
                _range_error(rules.def_, low_name, high_name),
            ),
        )
        if problem is not None:
            raise RulesError(problem)
    for check in (_opening_hand_error, _deck_min_error):
        problem = per_seat_message(rules, (check(rules.abc), check(rules.def_)))
        if problem is not None:
            raise RulesError(problem)


def check_random_decks(rules: SeatRules, random_seats: Collection[int] = (0, 1)) -> str | None:
    """What ``caravan`` says, or None, of rules that :func:`validate_seat_rules` accepts
    when the seats ``random_seats`` are dealt random decks (§6.1, §8): their deck size, their
    number of sample decks, then whether those samples hold enough cards. The command line,
    a game's parameters and a record's replay all check rules with this one function."""
    for check in (check_deck_size, check_samples, check_supply):
        message = check(rules, random_seats)
        if message is not None:
            return message
    return None


def rules_to_json(rules: Rules) -> dict[str, object]:
    """Every field in table order, as JSON values (None for none); for game records."""
    return {name: getattr(rules, name) for name in FIELD_NAMES}


def rules_from_json(data: object) -> Rules:
    """The inverse of :func:`rules_to_json`, strict: every field present, nothing else, every
    value of its field's JSON type and domain. Cross-field checks (ranges, global fields) are
    left to :func:`validate_seat_rules`, which needs both seats anyway.
    """
    if not isinstance(data, Mapping):
        raise RulesError("Rules must be a JSON object of rule fields.")
    for name in data:
        if name not in _DOMAINS:
            raise _unknown_field(str(name))
    values: dict[str, Any] = {}
    for name in FIELD_NAMES:
        if name not in data:
            raise RulesError(f"Missing rule field '{name}'.")
        value = data[name]
        if not _DOMAINS[name].accepts(value):
            raise _invalid_value(name, value_text(value))
        values[name] = value
    return Rules(**values)


def describe_rules(rules: Rules) -> list[str]:
    """One "field = value" line per field, in table order, for help screens.

    Values use the ``--rule`` spelling; a ``none`` that stands for a derived value shows it
    in parentheses, as the specification's table does ("none (8)").
    """
    return [f"{name} = {field_text(rules, name)}" for name in FIELD_NAMES]


def field_text(rules: Rules, name: str) -> str:
    """One field's value, with what a ``none`` stands for where it is derived."""
    text = value_text(getattr(rules, name))
    if name == "opening_hand_size" and rules.opening_hand_size is None:
        text += f" ({rules.opening_hand})"
    elif name == "deck_size" and rules.deck_size is None:
        text += f" (random {rules.deck_min}..{rules.deck_max})"
    elif name == "samples" and rules.samples is None:
        text += f" ({resolved_samples(rules, rules.deck_size)})"
    return text
