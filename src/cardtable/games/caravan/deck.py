"""Building a seat's deck: random decks from sample decks (§6.1) and custom deck files (§6.2).

Convention: a deck is a list of cards with its TOP card LAST, so drawing is ``deck.pop()``
and a deck listed "top card first" (as records do) is ``deck[::-1]``.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import lru_cache

from cardtable.engine.bounded_read import MEBIBYTE, FileTooLarge, read_bounded
from cardtable.engine.randomness import GameRandom
from cardtable.games.caravan import cards as cardlib
from cardtable.games.caravan.errors import DeckError
from cardtable.games.caravan.legality import compiled_core
from cardtable.games.caravan.rules import Rules, SeatRules

SEAT_PREFIXES = ("ABC: ", "DEF: ")
INSUFFICIENT_CARDS = "There are insufficient cards to sample for the caravan deck."
MIN_OPENING_NUMERALS = 3
MAX_DECK_FILE_BYTES = MEBIBYTE
"""A deck file is a few hundred short lines; this only stops files that never end."""
"""A hand to open with needs this many numerals (one per own caravan)."""

_NUMERAL_RANK_MAX = cardlib.ACE + 9  # ranks 1..10 are numerals
_RANK_MASK = cardlib.RANK_MASK


def per_seat_message(rules: SeatRules, messages: tuple[str | None, str | None]) -> str | None:
    """Combine one check's outcome for ABC and DEF into the single message to report.

    When both seats fail alike, or the seats share their rules, the plain message is enough.
    Otherwise the user changed one seat's rules and must be told which seat is wrong, so the
    message gets an ``ABC: `` or ``DEF: `` prefix (ABC's first when both fail differently).
    """
    abc_message, def_message = messages
    if abc_message == def_message:
        return abc_message
    if abc_message is None or def_message is None:
        only = abc_message if abc_message is not None else def_message
        if rules.abc == rules.def_:
            return only
        return SEAT_PREFIXES[0 if abc_message is not None else 1] + str(only)
    return SEAT_PREFIXES[0] + abc_message


def _size_bound(rules: Rules) -> int:
    """N of §6.1, or M (the largest size it can draw) when the size is random."""
    return rules.deck_size if rules.deck_size is not None else rules.deck_max


def resolved_samples(rules: Rules, size: int | None) -> int:
    """S of §6.1 step 2: how many sample decks a random deck is drawn from.

    ``size`` is the seat's fixed deck size, or None when the size is drawn at random
    (normally just ``rules.deck_size``). A random size is sized for its largest outcome,
    ``deck_max``, so S never depends on the size actually drawn.
    """
    if rules.samples is not None:
        return rules.samples
    largest = rules.deck_max if size is None else size
    per_sample = 52 + rules.jokers_per_sample
    needed = -(-largest // per_sample)  # ceiling division
    return max(needed, rules.samples_min)


def _deck_size_error(rules: Rules, template: str) -> str | None:
    size = _size_bound(rules)
    if rules.deck_min <= size <= rules.deck_max:
        return None
    return template.format(low=rules.deck_min, high=rules.deck_max)


def _samples_error(rules: Rules, template: str) -> str | None:
    count = resolved_samples(rules, rules.deck_size)
    if rules.samples_min <= count <= rules.samples_max:
        return None
    return template.format(low=rules.samples_min, high=rules.samples_max)


def _supply_error(rules: Rules) -> str | None:
    count = resolved_samples(rules, rules.deck_size)
    if _size_bound(rules) <= count * (52 + rules.jokers_per_sample):
        return None
    return INSUFFICIENT_CARDS


_CLI_SIZE = "Caravan decks must have between {low} and {high} cards (inclusive)."
_CLI_SAMPLES = "Number of caravan deck samples must be between {low} and {high} (inclusive)."
_LIB_SIZE = "A caravan deck must have between {low} and {high} cards (inclusive)."
_LIB_SAMPLES = (
    "A caravan deck must sample from between {low} and {high} standard card decks (inclusive)."
)


def check_deck_size(rules: SeatRules, seats: Collection[int] = (0, 1)) -> str | None:
    """The startup deck-size message (§8), or None when every random deck's size is in bounds.

    ``seats`` lists the seats whose decks are built at random; a seat playing a deck file
    ignores ``deck_size`` and is not checked.
    """
    return per_seat_message(
        rules,
        (
            _deck_size_error(rules.abc, _CLI_SIZE) if 0 in seats else None,
            _deck_size_error(rules.def_, _CLI_SIZE) if 1 in seats else None,
        ),
    )


def check_samples(rules: SeatRules, seats: Collection[int] = (0, 1)) -> str | None:
    """The startup sample-count message (§8), or None; ``seats`` as for :func:`check_deck_size`."""
    return per_seat_message(
        rules,
        (
            _samples_error(rules.abc, _CLI_SAMPLES) if 0 in seats else None,
            _samples_error(rules.def_, _CLI_SAMPLES) if 1 in seats else None,
        ),
    )


def check_supply(rules: SeatRules, seats: Collection[int] = (0, 1)) -> str | None:
    """The startup insufficiency message (§8), or None; ``seats`` as for :func:`check_deck_size`."""
    return per_seat_message(
        rules,
        (
            _supply_error(rules.abc) if 0 in seats else None,
            _supply_error(rules.def_) if 1 in seats else None,
        ),
    )


@lru_cache(maxsize=256)
def _sample_template(owner: int, sample: int, jokers: int) -> tuple[int, ...]:
    # Built once per (owner, tag, jokers): a game only needs to copy and shuffle it.
    return tuple(cardlib.sample_deck(owner, sample, jokers))


def _numerals(deck: Sequence[int]) -> int:
    return sum(1 for card in deck if card & _RANK_MASK <= _NUMERAL_RANK_MAX)


def _opening_target(rules: Rules, size: int) -> tuple[int, int]:
    """(cards dealt first, numerals they must hold) for the ``rebuild`` mulligan.

    A hand of fewer than three cards (only reachable through overrides with
    ``opening_mode = none``) can never hold three numerals; it must then be all
    numerals instead, so that rebuilding always terminates.
    """
    dealt = min(rules.opening_hand, size)
    return dealt, min(MIN_OPENING_NUMERALS, dealt)


def _take(rules: Rules, owner: int, count: int, size: int, rng: GameRandom) -> list[int]:
    """One pass of §6.1 step 4: fresh shuffled samples, ``size`` cards in the order taken."""
    jokers = rules.jokers_per_sample
    if rules.sampling == "pooled":
        # Shuffling each sample first would not change the outcome: the pool is shuffled as
        # a whole, so every order of the pooled cards is equally likely either way. Skipping
        # those shuffles makes a pooled deck several times cheaper to build.
        pool: list[int] = []
        for tag in range(1, count + 1):
            pool += _sample_template(owner, tag, jokers)
        rng.shuffle(pool)
        return pool[:size]
    samples: list[list[int]] = []
    for tag in range(1, count + 1):
        sample = list(_sample_template(owner, tag, jokers))
        rng.shuffle(sample)
        samples.append(sample)
    if rules.sampling == "balanced":
        # The top of each sample is its last card, so reversing makes round robin
        # "first card of each reversed sample, then the second ...". The supply check
        # guarantees no sample runs dry before ``size`` cards are taken.
        if count == 1:
            return samples[0][: -size - 1 : -1] if size else []
        reversed_samples = [sample[::-1] for sample in samples]
        return [card for layer in zip(*reversed_samples, strict=True) for card in layer][:size]
    if rules.sampling == "imbalanced":
        taken: list[int] = []
        live = samples
        for _ in range(size):
            index = rng.randrange(len(live)) if len(live) > 1 else 0
            source = live[index]
            taken.append(source.pop())
            if not source:
                live = [sample for sample in live if sample]
        return taken
    raise ValueError(f"unknown sampling {rules.sampling!r}")


def random_deck_problem(rules: Rules) -> str | None:
    """Why ``rules`` cannot build a random deck (the library wording of §6.1 step 3), or None."""
    return (_deck_size_error(rules, _LIB_SIZE) or _samples_error(rules, _LIB_SAMPLES)
            or _supply_error(rules))


_checked: list[tuple[SeatRules, str | None]] = []
"""The rules last checked by :func:`random_decks_problem` and the outcome (rules are
immutable)."""


def random_decks_problem(rules: SeatRules) -> str | None:
    """Why ``rules`` cannot build both seats' random decks (ABC's problem first, the order
    the decks are built in), or None."""
    # Hashing a SeatRules costs more than a deal; the same object comes again and again.
    if _checked and _checked[0][0] is rules:
        return _checked[0][1]
    problem = random_deck_problem(rules.abc) or random_deck_problem(rules.def_)
    _checked[:] = [(rules, problem)]
    return problem


def compiled_random_decks(
    rules: SeatRules, seed: int
) -> tuple[list[int], list[int], GameRandom] | None:
    """Both seats' random decks built in the compiled core from ``random.Random(seed)``, as
    :func:`build_random_deck` builds ABC's and then DEF's (the core reproduces the generator
    and its draws), and the game's generator where those draws left it. None when the core
    is not built or does not take these settings, or ``seed`` is not an int: the decks are
    then built in Python. Raises :class:`DeckError` as :func:`build_random_deck` does."""
    core = compiled_core()
    if core is None or seed.__class__ is not int:
        return None
    problem = random_decks_problem(rules)
    if problem is not None:
        raise DeckError(problem)
    try:
        abc, def_, draws = core.deal_decks(rules.abc, rules.def_, seed)
    except ValueError:  # beyond the core's limits (Jokers per sample, samples, cards)
        return None
    # The game's generator goes on from the core's draws; it is made when first used (a
    # reshuffle, a position's text): a game that never reshuffles costs no seeding.
    return abc, def_, GameRandom.after_draws(seed, draws)


def build_random_deck(rules: Rules, owner: int, rng: GameRandom) -> list[int]:
    """A random deck for seat ``owner`` (0 ABC, 1 DEF) by §6.1, top card LAST.

    The list holds the cards in the order they were taken from the sample decks; the
    last card taken is the deck's top (dealt first). Raises :class:`DeckError` with the
    library wording of §6.1 step 3 when the settings cannot produce a deck.
    """
    problem = random_deck_problem(rules)
    if problem is not None:
        raise DeckError(problem)
    size = (
        rules.deck_size
        if rules.deck_size is not None
        else rng.randint(rules.deck_min, rules.deck_max)
    )
    count = resolved_samples(rules, rules.deck_size)
    if rules.mulligan == "rebuild":
        dealt, needed = _opening_target(rules, size)
    elif rules.opening_mode != "none":
        dealt, needed = size, min(MIN_OPENING_NUMERALS, size)
    else:
        dealt, needed = 0, 0
    while True:
        deck = _take(rules, owner, count, size, rng)
        if needed == 0 or _numerals(deck[len(deck) - dealt :]) >= needed:
            return deck


def jokerless_by_construction(rules: Rules, file_cards: Sequence[int] | None = None) -> bool:
    """Whether a seat's deck holds no Joker by construction (§2.2).

    This is what ``jack_is_joker_without_jokers`` looks at: a random deck qualifies iff
    ``jokers_per_sample`` is 0 (one that merely failed to draw a Joker does not); a deck
    file (``file_cards``, as read by :func:`read_deck_file`) iff it lists no ``JO``.
    """
    if file_cards is not None:
        return all(card & _RANK_MASK != cardlib.JOKER for card in file_cards)
    return rules.jokers_per_sample == 0


def read_deck_file(path: str, rules: Rules, owner: int) -> list[int]:
    """The cards of a custom deck file (§6.2) for seat ``owner``, in file order.

    The k-th occurrence of a code gets sample k; the k-th Joker gets sample ⌈k/2⌉ and copy
    1 or 2. Raises :class:`DeckError` with the first failing check of §6.2, in its order.
    """
    try:
        # utf-8-sig: a byte-order mark written by some editors is not part of the first line.
        text = read_bounded(path, MAX_DECK_FILE_BYTES).decode("utf-8-sig")
    except OSError as error:
        reason = error.strerror or str(error)
        raise DeckError(f"Cannot read deck file '{path}': {reason}.") from error
    except FileTooLarge as error:
        raise DeckError(f"Cannot read deck file '{path}': {error.reason}.") from None
    except UnicodeDecodeError as error:
        raise DeckError(f"Cannot read deck file '{path}': the file is not valid UTF-8.") from error
    # Text mode used to turn "\r\n" and a lone "\r" into "\n"; reading bytes keeps that.
    text = text.replace("\r\n", "\n").replace("\r", "\n")

    # Only "\n" ends a line (str.splitlines would also split on form feeds and the like,
    # making line numbers disagree with editors); strip() removes a "\r" left by CRLF.
    kinds: list[tuple[int, int]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        token = line.partition("#")[0].strip()
        if not token:
            continue
        kind = cardlib.parse_code(token)
        if kind is None:
            raise DeckError(f"Deck file '{path}', line {number}: unknown card '{token}'.")
        kinds.append(kind)

    if not rules.deck_min <= len(kinds) <= rules.deck_max:
        raise DeckError(
            f"Deck file '{path}' has {len(kinds)} cards; a deck must have between "
            f"{rules.deck_min} and {rules.deck_max} cards (inclusive)."
        )

    counts: dict[tuple[int, int], int] = {}
    for kind in kinds:  # dicts keep first-occurrence order: report the earliest code listed
        counts[kind] = counts.get(kind, 0) + 1
    for (rank, suit), copies in counts.items():
        allowed = rules.samples_max
        if rank == cardlib.JOKER:
            allowed *= rules.jokers_per_sample
        if copies > allowed:
            name = cardlib.code(cardlib.make(rank, suit))
            raise DeckError(
                f"Deck file '{path}' has {copies} copies of '{name}'; "
                f"at most {allowed} are allowed."
            )

    if rules.opening_mode != "none" and sum(
        copies for (rank, _), copies in counts.items() if rank <= _NUMERAL_RANK_MAX
    ) < MIN_OPENING_NUMERALS:
        raise DeckError(f"Deck file '{path}' has fewer than 3 numeral cards.")

    seen: dict[tuple[int, int], int] = {}
    deck: list[int] = []
    for rank, suit in kinds:
        occurrence = seen.get((rank, suit), 0) + 1
        seen[rank, suit] = occurrence
        if rank == cardlib.JOKER:
            deck.append(cardlib.make(rank, suit, owner, (occurrence + 1) // 2, 2 - occurrence % 2))
        else:
            deck.append(cardlib.make(rank, suit, owner, occurrence))
    return deck


def shuffle_file_deck(cards: Sequence[int], rules: Rules, rng: GameRandom) -> list[int]:
    """A shuffled copy of a deck file's cards, top card LAST, ready to deal.

    Under ``mulligan = rebuild`` it is reshuffled until the opening hand (the last
    ``rules.opening_hand`` cards) holds three numerals. Should the file itself hold
    fewer (allowed only with ``opening_mode = none``), the hand must hold all of them,
    so the loop always ends.
    """
    deck = list(cards)
    rng.shuffle(deck)
    if rules.mulligan != "rebuild" or not deck:
        return deck
    dealt, needed = _opening_target(rules, len(deck))
    needed = min(needed, _numerals(deck))
    while _numerals(deck[len(deck) - dealt :]) < needed:
        rng.shuffle(deck)
    return deck
