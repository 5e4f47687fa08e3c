"""The shared rules in process: parsing, payments, endings and invariants over random games."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.games.austerity.codec import (
    format_action,
    parse_action,
    parse_argument,
    parse_message,
    parse_num,
)
from cardtable.games.austerity.deck import parse_deck
from cardtable.games.austerity.rules import PURCHASE, TAKE, WILD_ACTION, Card, Game, Table
from cardtable.games.austerity.simulate import (
    count_permutations,
    distinct_permutations,
    play_game,
    seatings,
)
from cardtable.games.austerity.strategies import STRATEGIES


def test_payment_example_from_the_specification() -> None:
    table = Table(2, 3)
    table.tokens[0] = [2, 0, 1, 0]
    table.wilds[0] = 2
    table.discounts[0] = [1, 0, 0, 0]
    card = Card(3, 2, (3, 1, 0, 0))
    assert table.payment(0, card) == (2, 0, 0, 0, 1)
    assert table.can_afford(0, card)
    assert table.price(0, card) == 3


def test_hub_accepts_only_the_canonical_payment() -> None:
    game = Game([Card(0, 1, (0, 0, 0, 0))] * 3 + [Card(3, 2, (3, 1, 0, 0))], 3, 10, 2)
    game.opening()
    game.table.tokens[0] = [2, 0, 1, 0]
    game.table.wilds[0] = 2
    game.table.discounts[0] = [1, 0, 0, 0]
    assert game.is_valid((PURCHASE, 3, (2, 0, 0, 0, 1)))
    for bad in [(1, 0, 0, 0, 2), (2, 0, 0, 0, 2), (2, 0, 1, 0, 1), (2, 0, 0, 0, 0)]:
        assert not game.is_valid((PURCHASE, 3, bad))
    assert parse_action(b"purchase3 :2,0,0,0,1") is None


@given(st.binary(max_size=40))
def test_action_parsing_is_exactly_the_canonical_form(data: bytes) -> None:
    action = parse_action(data)
    if action is not None:
        assert format_action(action) == data + b"\n"


@given(st.sampled_from(["wild", "take", "purchase"]), st.lists(st.integers(0, 2**31 + 5),
                                                                 min_size=5, max_size=5))
def test_formatted_actions_parse_back(kind: str, values: list[int]) -> None:
    if kind == "wild":
        action = WILD_ACTION
    elif kind == "take":
        action = (TAKE, 0, tuple(values[:4]))
    else:
        action = (PURCHASE, values[0], tuple(values))
    text = format_action(action)
    parsed = parse_action(text[:-1])
    in_range = all(v <= 2147483647 for v in action[2]) and action[1] <= 2147483647
    assert parsed == (action if in_range else None)


@given(st.binary(max_size=40))
def test_messages_never_crash_the_parser(data: bytes) -> None:
    parse_message(data, 26)


def test_number_rules() -> None:
    assert [parse_num(x) for x in (b"0", b"7", b"2147483647")] == [0, 7, 2147483647]
    assert [parse_num(x) for x in (b"", b"01", b"+1", b"-1", b"2147483648", b" 1")] == [-1] * 6
    assert [parse_argument(x) for x in ("007", "0", "2147483647")] == [7, 0, 2147483647]
    assert [parse_argument(x) for x in ("", "+5", "1.0", "٣", "2147483648", "0" * 50 + "9")] == [
        -1, -1, -1, -1, -1, 9]


def test_deck_parsing() -> None:
    assert parse_deck(b"B:1:1,0,0,0") == [Card(1, 1, (1, 0, 0, 0))]
    assert parse_deck(b"B:0001:1,0,0,0\n") == [Card(1, 1, (1, 0, 0, 0))]
    for bad in (b"", b"\n", b"\n\n", b"B:1:1,0,0,0\n\n", b"B:1:1,0,0,0\r\n", b"b:1:1,0,0,0"):
        assert parse_deck(bad) is None


def test_permutations_of_a_line_up() -> None:
    lineup = ["shenzi", "ed", "shenzi", "banzai"]
    orderings = list(distinct_permutations(lineup))
    assert len(orderings) == len(set(orderings)) == count_permutations(lineup) == 12
    assert seatings(["a", "b", "c"], "rotate") == [("a", "b", "c"), ("b", "c", "a"),
                                                    ("c", "a", "b")]
    assert seatings(["a", "b"], "fixed") == [("a", "b")]


cards = st.builds(Card, st.integers(0, 3), st.integers(0, 5),
                  st.tuples(*[st.integers(0, 4)] * 4))


@settings(max_examples=150, deadline=None)
@given(deck=st.lists(cards, min_size=1, max_size=30), tokens=st.integers(0, 8),
       points=st.integers(0, 15),
       lineup=st.lists(st.sampled_from(sorted(STRATEGIES)), min_size=2, max_size=5))
def test_random_games_keep_the_invariants(deck: list[Card], tokens: int, points: int,
                                          lineup: list[str]) -> None:
    # Every strategy move is one the hub accepts (check=True), and the game either ends by
    # the rules or runs out of turns; no token is created or lost.
    result = play_game(deck, tokens, points, lineup, max_turns=3000, check=True)
    game = Game(deck, tokens, points, len(lineup))
    game.opening()
    choosers = [STRATEGIES[name] for name in lineup]
    bought = 0
    for _ in range(result.turns):
        action = choosers[game.current](game.table, game.current)
        bought += action[0] == PURCHASE
        game.play(action)
        table = game.table
        for colour in range(4):
            held = sum(tokens_of[colour] for tokens_of in table.tokens)
            assert table.piles[colour] + held == tokens
            assert table.piles[colour] >= 0
        assert min(table.wilds) >= 0
        assert len(table.market) <= 8
        assert len(table.market) + bought + (len(deck) - game.next_card) == len(deck)
    assert game.finished == result.finished
    assert tuple(game.table.points) == result.points
    if result.finished:
        best = max(result.points)
        assert result.winners == tuple(i for i, p in enumerate(result.points) if p == best)
