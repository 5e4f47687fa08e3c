"""The player programs: command line, message checking, status blocks and every strategy rule.

Players are driven exactly as a hub drives them: real processes reading messages on stdin.
"""

from __future__ import annotations

import pytest
from austerity_support import player

NAMES = ["shenzi", "banzai", "ed"]
COMM_ERROR = b"Communication Error\n"


# --- command line -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("args", [[], ["2"], ["2", "0", "0"]])
def test_wrong_argument_count_is_usage(name: str, args: list[str]) -> None:
    result = player(name, [], *args)
    assert (result.returncode, result.stdout, result.stderr) == (
        1, b"", f"Usage: {name} pcount myid\n".encode())


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("args, status, message", [
    (["27", "0"], 2, b"Invalid player count\n"),
    (["1", "0"], 2, b"Invalid player count\n"),
    (["0", "0"], 2, b"Invalid player count\n"),
    (["x", "0"], 2, b"Invalid player count\n"),
    (["-2", "0"], 2, b"Invalid player count\n"),
    (["+2", "0"], 2, b"Invalid player count\n"),
    (["", "0"], 2, b"Invalid player count\n"),
    (["2147483648", "0"], 2, b"Invalid player count\n"),
    (["x", "x"], 2, b"Invalid player count\n"),
    (["2", "2"], 3, b"Invalid player ID\n"),
    (["2", "-1"], 3, b"Invalid player ID\n"),
    (["2", "x"], 3, b"Invalid player ID\n"),
    (["2", ""], 3, b"Invalid player ID\n"),
    (["2", " 1"], 3, b"Invalid player ID\n"),
    (["26", "26"], 3, b"Invalid player ID\n"),
])
def test_bad_arguments(name: str, args: list[str], status: int, message: bytes) -> None:
    result = player(name, [], *args)
    assert (result.returncode, result.stdout, result.stderr) == (status, b"", message)


@pytest.mark.parametrize("args", [["26", "25"], ["02", "1"], ["2", "00"], ["3", "2"]])
def test_valid_arguments_then_eof_at_start(args: list[str]) -> None:
    result = player("shenzi", b"", *args)
    assert (result.returncode, result.stdout, result.stderr) == (6, b"", COMM_ERROR)


# --- messages ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_spec_example_game_as_player_a(name: str) -> None:
    messages = ["tokens2", "newcardB:1:1,0,0,0", "newcardY:0:0,3,0,2", "dowhat",
                "tookA:1,1,1,0", "tookB:1,1,1,0", "dowhat", "purchasedA:0:1,0,0,0,0", "wildB",
                "eog"]
    result = player(name, messages, "2", "0")
    assert result.returncode == 0
    expected_err = (
        "Player A:0:Discounts=0,0,0,0:Tokens=0,0,0,0,0\n"
        "Player B:0:Discounts=0,0,0,0:Tokens=0,0,0,0,0\n"
        "Card 0:B/1/1,0,0,0\n"
        "Player A:0:Discounts=0,0,0,0:Tokens=0,0,0,0,0\n"
        "Player B:0:Discounts=0,0,0,0:Tokens=0,0,0,0,0\n"
        "Card 0:B/1/1,0,0,0\n"
        "Card 1:Y/0/0,3,0,2\n"
        "Player A:0:Discounts=0,0,0,0:Tokens=0,0,0,0,0\n"
        "Player B:0:Discounts=0,0,0,0:Tokens=0,0,0,0,0\n"
        "Received dowhat\n"
        "Card 0:B/1/1,0,0,0\n"
        "Card 1:Y/0/0,3,0,2\n"
        "Player A:0:Discounts=0,0,0,0:Tokens=1,1,1,0,0\n"
        "Player B:0:Discounts=0,0,0,0:Tokens=0,0,0,0,0\n"
        "Card 0:B/1/1,0,0,0\n"
        "Card 1:Y/0/0,3,0,2\n"
        "Player A:0:Discounts=0,0,0,0:Tokens=1,1,1,0,0\n"
        "Player B:0:Discounts=0,0,0,0:Tokens=1,1,1,0,0\n"
        "Received dowhat\n"
        "Card 0:Y/0/0,3,0,2\n"
        "Player A:1:Discounts=0,1,0,0:Tokens=0,1,1,0,0\n"
        "Player B:0:Discounts=0,0,0,0:Tokens=1,1,1,0,0\n"
        "Card 0:Y/0/0,3,0,2\n"
        "Player A:1:Discounts=0,1,0,0:Tokens=0,1,1,0,0\n"
        "Player B:0:Discounts=0,0,0,0:Tokens=1,1,1,0,1\n"
        "Game over. Winners are A\n"
    )
    assert result.stderr.decode() == expected_err
    first = {"shenzi": b"take1,1,1,0\n", "banzai": b"take1,1,1,0\n", "ed": b"take0,1,1,1\n"}
    assert result.stdout.startswith(first[name])
    assert result.stdout.count(b"\n") == 2


MALFORMED = {
    "wild without letter": "wild",
    "purchase without d": "purchaseA:0:1,0,0,0,0",
    "unknown keyword": "hello",
    "empty line": "",
    "letter beyond players (wild)": "wildC",
    "letter beyond players (took)": "tookC:1,1,1,0",
    "letter beyond players (purchased)": "purchasedC:0:0,0,0,0,0",
    "lower-case letter": "wilda",
    "two letters": "wildAB",
    "purchased index beyond market": "purchasedA:1:0,0,0,0,0",
    "colour G": "newcardG:1:1,0,0,0",
    "lower-case colour": "newcardp:1:1,0,0,0",
    "three costs": "newcardP:1:1,0,0",
    "five costs": "newcardP:1:1,0,0,0,0",
    "leading zero": "newcardP:01:1,0,0,0",
    "value beyond int max": "newcardP:2147483648:0,0,0,0",
    "tokens without number": "tokens",
    "tokens negative": "tokens-1",
    "tokens leading zero": "tokens05",
    "tokens with space": "tokens 5",
    "took three values": "tookA:1,1,1",
    "took no colon": "tookA1,1,1,0",
    "purchased four values": "purchasedA:0:1,0,0,0",
    "dowhat with space": "dowhat ",
    "eog with carriage return": "eog\r",
    "tab": "tokens\t5",
    "nul": "eog\x00",
    "non-ascii": "tokens5\xe9",
    "over-long": "tokens" + "1" * 5000,
}


@pytest.mark.parametrize("key", sorted(MALFORMED))
def test_malformed_message_is_a_communication_error(key: str) -> None:
    data = ("tokens5\nnewcardP:1:1,0,0,0\n" + MALFORMED[key] + "\ndowhat\neog\n").encode(
        "latin-1")
    result = player("shenzi", data, "2", "0")
    assert result.returncode == 6
    assert result.stdout == b""
    assert result.stderr.endswith(b"Player B:0:Discounts=0,0,0,0:Tokens=0,0,0,0,0\n" + COMM_ERROR)


@pytest.mark.parametrize("data", [b"", b"tokens5", b"tokens5\neog", b"tokens5\ndowhat\n"])
def test_eof_before_eog_is_a_communication_error(data: bytes) -> None:
    result = player("banzai", data, "2", "1")
    assert result.returncode == 6
    assert result.stderr.endswith(COMM_ERROR)


def test_ninth_newcard_is_a_communication_error() -> None:
    cards = [f"newcardP:{i}:1,0,0,0" for i in range(9)]
    result = player("ed", ["tokens5", *cards, "eog"], "2", "0")
    assert result.returncode == 6
    assert result.stderr.endswith(b"Card 7:P/7/1,0,0,0\n"
                                  b"Player A:0:Discounts=0,0,0,0:Tokens=0,0,0,0,0\n"
                                  b"Player B:0:Discounts=0,0,0,0:Tokens=0,0,0,0,0\n" + COMM_ERROR)


def test_large_values_and_any_message_order_are_accepted() -> None:
    messages = ["newcardP:2000000000:1999999999,0,7,2147483647", "wildB", "tokens2147483647",
                "tookB:2147483647,0,0,2", "purchasedA:0:0,0,0,0,0", "tokens1", "eog"]
    result = player("shenzi", messages, "2", "1")
    assert result.returncode == 0
    lines = result.stderr.decode().splitlines()
    # The blind model update: B's took drove nothing negative, A's purchase made A the winner.
    assert lines[-3:] == ["Player A:2000000000:Discounts=1,0,0,0:Tokens=0,0,0,0,0",
                          "Player B:0:Discounts=0,0,0,0:Tokens=2147483647,0,0,2,1",
                          "Game over. Winners are A"]


def test_model_values_may_go_negative() -> None:
    messages = ["tokens1", "newcardR:1:5,5,5,5", "purchasedB:0:3,0,0,0,2", "eog"]
    result = player("ed", messages, "2", "0")
    assert result.returncode == 0
    assert b"Player B:1:Discounts=0,0,0,1:Tokens=-3,0,0,0,-2\n" in result.stderr
    assert result.stderr.endswith(b"Game over. Winners are B\n")


def test_tie_lists_every_winner() -> None:
    messages = ["tokens5", "newcardR:2:0,0,0,0", "newcardY:2:0,0,0,0", "newcardP:1:0,0,0,0",
                "purchasedA:0:0,0,0,0,0", "purchasedC:0:0,0,0,0,0", "eog"]
    result = player("banzai", messages, "3", "1")
    assert result.stderr.endswith(b"Game over. Winners are A,C\n")


def test_everybody_wins_with_no_points() -> None:
    result = player("banzai", ["eog"], "4", "3")
    assert (result.returncode, result.stderr) == (
        0, b"Game over. Winners are A,B,C,D\n")


# --- strategies -------------------------------------------------------------------------------


def setup(tokens: int, market: list[str], holdings: dict[str, dict[str, object]]) -> list[str]:
    """Messages that put the players' model in a given state, as a hub could send them.

    ``holdings[X]`` may give ``discounts`` (colour letters, each bought as a 0-point card),
    ``tokens`` (P,B,Y,R taken at once) and ``wilds``. Piles end at ``tokens`` minus all tokens
    taken; tests assert the piles they rely on.
    """
    messages = [f"tokens{tokens}"]
    for who, held in holdings.items():
        for colour in str(held.get("discounts", "")):
            messages += [f"newcard{colour}:0:0,0,0,0", f"purchased{who}:0:0,0,0,0,0"]
        taken = held.get("tokens")
        if taken:
            messages.append(f"took{who}:{taken}")
        messages += [f"wild{who}"] * int(str(held.get("wilds", 0)))
    messages += [f"newcard{card}" for card in market]
    return messages


def decide(name: str, count: int, me: int, messages: list[str]) -> tuple[str, list[str]]:
    """The player's reply to ``dowhat`` after ``messages``, and its last status block."""
    result = player(name, [*messages, "dowhat", "eog"], str(count), str(me))
    assert result.returncode == 0, result.stderr
    err = result.stderr.decode().splitlines()
    block_end = err.index("Received dowhat")
    block = [line for line in err[:block_end] if not line.startswith("Card ")][-count:]
    return result.stdout.decode(), block


EXAMPLE1_MARKET = ["R:2:2,0,0,0", "B:2:0,1,1,0", "Y:1:0,0,0,1", "P:2:1,1,0,0"]


def test_shenzi_example_newest_among_equals() -> None:
    # The opponent's red token keeps every pile at 3.
    reply, block = decide("shenzi", 2, 0, setup(4, EXAMPLE1_MARKET, {
        "A": {"tokens": "1,1,1,0", "wilds": 1}, "B": {"tokens": "0,0,0,1"}}))
    assert block[0] == "Player A:0:Discounts=0,0,0,0:Tokens=1,1,1,0,1"
    assert reply == "purchase3:1,1,0,0,0\n"


def test_shenzi_example_discounted_price() -> None:
    reply, block = decide("shenzi", 2, 0, setup(4, EXAMPLE1_MARKET, {
        "A": {"discounts": "Y", "tokens": "1,1,1,0", "wilds": 1}, "B": {"tokens": "0,0,0,1"}}))
    assert block[0] == "Player A:0:Discounts=0,0,1,0:Tokens=1,1,1,0,1"
    assert reply == "purchase1:0,1,0,0,0\n"


def test_shenzi_points_before_price() -> None:
    reply, _ = decide("shenzi", 2, 1, setup(5, ["P:1:1,0,0,0", "B:3:2,2,0,0", "Y:2:0,0,0,1"], {
        "B": {"tokens": "2,2,1,1"}}))
    assert reply == "purchase1:2,2,0,0,0\n"


def test_shenzi_uses_wilds_only_for_the_shortfall() -> None:
    reply, _ = decide("shenzi", 2, 0, setup(5, ["R:4:3,0,0,2"], {
        "A": {"tokens": "1,0,0,1", "wilds": 3}}))
    assert reply == "purchase0:1,0,0,1,3\n"


def test_shenzi_cannot_afford_takes_in_order_pbyr() -> None:
    reply, _ = decide("shenzi", 2, 0, setup(3, ["R:4:3,3,3,3"], {"B": {"tokens": "0,0,0,0"}}))
    assert reply == "take1,1,1,0\n"


def test_shenzi_skips_empty_piles_when_taking() -> None:
    reply, _ = decide("shenzi", 2, 0, setup(2, ["R:4:9,9,9,9"], {"B": {"tokens": "2,0,0,0"}}))
    assert reply == "take0,1,1,1\n"


def test_shenzi_takes_a_wild_with_two_piles_empty() -> None:
    reply, _ = decide("shenzi", 2, 0, setup(2, ["R:4:9,9,9,9"], {"B": {"tokens": "2,0,2,0"}}))
    assert reply == "wild\n"


BANZAI_MARKET = ["Y:0:1,1,1,1", "B:1:2,0,0,0", "R:3:0,0,2,0", "P:1:0,0,0,1"]


def test_banzai_example_dearest_then_most_wilds() -> None:
    reply, block = decide("banzai", 2, 0, setup(4, BANZAI_MARKET, {
        "A": {"tokens": "1,0,0,0", "wilds": 3}, "B": {"tokens": "0,1,1,1"}}))
    assert block[0] == "Player A:0:Discounts=0,0,0,0:Tokens=1,0,0,0,3"
    assert reply == "purchase2:0,0,0,0,2\n"


def test_banzai_example_wilds_count_as_tokens() -> None:
    reply, _ = decide("banzai", 2, 0, setup(4, BANZAI_MARKET, {
        "A": {"tokens": "1,0,0,0", "wilds": 1}, "B": {"tokens": "0,1,1,1"}}))
    assert reply == "take1,1,1,0\n"


def test_banzai_example_no_take_falls_through_to_purchase() -> None:
    # Piles 0,0,2,2: the opponent holds 1 purple and 2 brown.
    reply, block = decide("banzai", 2, 0, setup(2, BANZAI_MARKET, {
        "A": {"tokens": "1,0,0,0", "wilds": 1}, "B": {"tokens": "1,2,0,0"}}))
    assert block[1] == "Player B:0:Discounts=0,0,0,0:Tokens=1,2,0,0,0"
    assert reply == "purchase1:1,0,0,0,1\n"


def test_banzai_takes_in_order_ybpr() -> None:
    reply, _ = decide("banzai", 2, 1, setup(3, ["P:1:5,5,5,5"], {"A": {"tokens": "0,0,3,0"}}))
    assert reply == "take1,1,0,1\n"


def test_banzai_oldest_on_a_full_tie() -> None:
    reply, _ = decide("banzai", 2, 0, setup(5, ["P:1:0,1,0,1", "B:2:1,0,1,0"], {
        "A": {"tokens": "1,1,1,1"}}))
    assert reply == "purchase0:0,1,0,1,0\n"


def test_banzai_never_buys_zero_point_cards() -> None:
    reply, _ = decide("banzai", 2, 0, setup(5, ["P:0:1,0,0,0", "B:1:5,5,5,5"], {
        "A": {"tokens": "1,1,1,1"}}))
    assert reply == "wild\n"


def test_banzai_dearest_uses_the_discounted_price() -> None:
    # Card 0 lists 4 tokens but costs banzai 1 after two discounts; card 1 costs 2.
    reply, _ = decide("banzai", 2, 0, setup(5, ["P:1:3,0,0,0", "B:1:0,1,1,0"], {
        "A": {"discounts": "PP", "tokens": "1,1,1,1"}}))
    assert reply == "purchase1:0,1,1,0,0\n"


ED_MARKET = ["Y:3:0,0,0,2", "R:3:2,0,0,0", "B:1:0,0,1,0"]


def test_ed_example_nearest_player_with_wrap_around() -> None:
    reply, _ = decide("ed", 4, 2, setup(5, ED_MARKET, {
        "A": {"tokens": "0,0,0,2"}, "B": {"tokens": "0,0,1,0"}, "D": {"tokens": "2,0,0,0"}}))
    assert reply == "take1,0,1,1\n"


def test_ed_example_three_players() -> None:
    reply, _ = decide("ed", 3, 2, setup(5, ED_MARKET, {
        "A": {"tokens": "0,0,0,2"}, "B": {"tokens": "0,0,1,0"}}))
    assert reply == "take0,1,1,1\n"


def test_ed_example_buys_the_target_with_wilds() -> None:
    reply, _ = decide("ed", 4, 2, setup(5, ED_MARKET, {
        "A": {"tokens": "0,0,0,2"}, "B": {"tokens": "0,0,1,0"}, "C": {"wilds": 2},
        "D": {"tokens": "2,0,0,0"}}))
    assert reply == "purchase1:0,0,0,0,2\n"


def test_ed_reference_example() -> None:
    # Target 3P,2B,0Y,1R; ed (B) holds 1P,2B,1Y,0R; the opponent's holdings leave the piles
    # at 4P,5B,0Y,2R and let it afford the target with one wild.
    reply, block = decide("ed", 2, 1, setup(8, ["P:1:3,2,0,1"], {
        "A": {"tokens": "3,1,7,6", "wilds": 1}, "B": {"tokens": "1,2,1,0"}}))
    assert block[1] == "Player B:0:Discounts=0,0,0,0:Tokens=1,2,1,0,0"
    assert reply == "take1,1,0,1\n"


def test_ed_oldest_on_a_full_tie() -> None:
    reply, _ = decide("ed", 2, 0, setup(5, ["P:2:0,1,0,0", "B:2:1,0,0,0", "R:1:0,0,0,1"], {
        "A": {"tokens": "1,1,0,0"}, "B": {"tokens": "1,1,1,1"}}))
    assert reply == "purchase0:0,1,0,0,0\n"


def test_ed_targets_most_points_even_when_it_cannot_buy() -> None:
    reply, _ = decide("ed", 2, 0, setup(5, ["P:1:0,1,0,0", "R:4:0,0,2,0"], {
        "A": {"tokens": "0,1,0,0"}, "B": {"tokens": "0,0,2,0"}}))
    # Target is card 1 (yellow is short): Y first, then R, B.
    assert reply == "take0,1,1,1\n"


def test_ed_ignores_its_own_means_when_choosing() -> None:
    # ed could buy the 5-point card nobody else can afford; it buys the 1-point target.
    reply, _ = decide("ed", 2, 0, setup(9, ["P:5:0,0,3,0", "B:1:0,1,0,0"], {
        "A": {"tokens": "0,1,3,0"}, "B": {"tokens": "0,1,0,3"}}))
    assert reply == "purchase1:0,1,0,0,0\n"


def test_ed_zero_point_cards_are_targets() -> None:
    reply, _ = decide("ed", 2, 0, setup(5, ["P:0:1,0,0,0"], {
        "A": {"tokens": "1,0,0,0"}, "B": {"tokens": "1,0,0,0"}}))
    assert reply == "purchase0:1,0,0,0,0\n"


def test_ed_without_target_takes_in_order_yrbp() -> None:
    reply, _ = decide("ed", 2, 0, setup(5, ["P:1:9,9,9,9"], {}))
    assert reply == "take0,1,1,1\n"


def test_ed_shortage_counts_discounts() -> None:
    # Target 1P,1B: ed's purple discount covers purple, so only brown comes first.
    reply, _ = decide("ed", 2, 0, setup(5, ["P:1:1,1,0,0"], {
        "A": {"discounts": "P"}, "B": {"tokens": "1,1,0,0"}}))
    assert reply == "take0,1,1,1\n"


def test_ed_shortage_ignores_wilds() -> None:
    # ed's wild could stand in for either colour, yet both count as short: B, P, then Y.
    reply, _ = decide("ed", 2, 0, setup(5, ["P:1:1,1,0,0"], {
        "A": {"wilds": 1}, "B": {"tokens": "1,1,0,0"}}))
    assert reply == "take1,1,1,0\n"


def test_ed_takes_a_wild_when_it_cannot_take() -> None:
    reply, _ = decide("ed", 2, 0, setup(2, ["P:1:9,9,9,9"], {"B": {"tokens": "2,2,0,0"}}))
    assert reply == "wild\n"
