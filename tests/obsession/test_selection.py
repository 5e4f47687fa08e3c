"""The selection grammar shared by every interface, and its messages."""

from __future__ import annotations

import pytest

from cardtable.games.obsession.selection import check, numbers, parse


@pytest.mark.parametrize("line", ["4,5", "4 5", "4-5", "a4b5", " 4\t5 ", "004 05", "4;;5."])
def test_any_non_digit_separates_numbers(line: str) -> None:
    assert numbers(line) == [4, 5]


def test_a_minus_sign_is_never_a_sign() -> None:
    assert numbers("-3") == [3]


def test_only_ascii_digits_count() -> None:
    assert numbers("٣ 2") == [2]  # an Arabic-Indic three is a separator


def test_no_numbers_means_ask_again_without_a_message() -> None:
    assert parse("", 5) == ([], None)
    assert parse("abc", 5) == ([], None)


def test_out_of_range_is_an_invalid_card_selection() -> None:
    assert parse("0", 5)[1] == "Invalid card selection"
    assert parse("6", 5)[1] == "Invalid card selection"
    assert parse("99999999999999999999999", 5)[1] == "Invalid card selection"


def test_duplicates_are_rejected() -> None:
    assert parse("1 1 2", 6, 3)[1] == "Duplicate card selection"


def test_fixed_counts() -> None:
    assert parse("1 2", 6, 3)[1] == "You must select 3 cards"
    assert parse("1 2", 3, 1)[1] == "You must select 1 card"
    assert parse("1 2 3", 6, 3) == ([1, 2, 3], None)


def test_checks_run_in_order_and_the_first_failure_decides() -> None:
    assert check([7, 1, 1], 6, 3) == "Invalid card selection"
    assert check([1, 1], 6, 3) == "Duplicate card selection"


def test_a_huge_line_of_digits_is_refused_quickly() -> None:
    assert parse("9" * 100_000, 5)[1] == "Invalid card selection"
