"""How to play Caravan under the rules in play: a help page written from the ``Rules`` fields.

Every sentence is a pure function of one seat's :class:`Rules`, so a preset, a per-seat
override or a rules file reads correctly: when the two seats' rules give different sentences,
each seat's sentence is printed with its seat name. The full screen and the line mode show
the same text.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import fields

from cardtable.games.caravan.deck import resolved_samples
from cardtable.games.caravan.rules import PRESETS, Rules, SeatRules

Sentence = Callable[[Rules], str]
"""One statement of the page from one seat's rules."""


# ---------------------------------------------------------------------------- preset


def _nearest_preset(rules: Rules) -> tuple[str, list[str]]:
    """The preset ``rules`` differ least from (the earlier preset on ties) and the fields
    that differ from it, in field order."""
    best: tuple[str, list[str]] | None = None
    for name, preset in PRESETS.items():
        changed = [f.name for f in fields(Rules)
                   if getattr(rules, f.name) != getattr(preset, f.name)]
        if best is None or len(changed) < len(best[1]):
            best = (name, changed)
    assert best is not None
    return best


def preset_label(rules: SeatRules) -> str:
    """The rules in play in a few words: ``power``, ``foxon, changed: max_faces`` or
    ``ABC: power; DEF: nv`` (each seat's nearest preset and the fields changed from it)."""
    (abc_name, abc_changed), (def_name, def_changed) = (
        _nearest_preset(rules.abc), _nearest_preset(rules.def_))
    if abc_name == def_name:
        if rules.abc == rules.def_:
            return abc_name + (f", changed: {', '.join(abc_changed)}" if abc_changed else "")
        parts = [f"changed for {seat}: {', '.join(changed)}"
                 for seat, changed in (("ABC", abc_changed), ("DEF", def_changed)) if changed]
        return f"{abc_name}, " + "; ".join(parts)
    labels = [name + (f", changed: {', '.join(changed)}" if changed else "")
              for name, changed in ((abc_name, abc_changed), (def_name, def_changed))]
    return f"ABC: {labels[0]}; DEF: {labels[1]}"


def preset_short(rules: SeatRules) -> str:
    """``power``, ``power (changed)`` or ``power/nv``: the preset name where space is short."""
    (abc_name, abc_changed), (def_name, def_changed) = (
        _nearest_preset(rules.abc), _nearest_preset(rules.def_))
    name = abc_name if abc_name == def_name else f"{abc_name}/{def_name}"
    return name + (" (changed)" if abc_changed or def_changed else "")


# ------------------------------------------------------------------------- sentences


def _number(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _sold(rules: Rules) -> str:
    return (f"A caravan is sold when its value is from {rules.sold_min} to {rules.sold_max}; "
            f"over {rules.sold_max} it is bust.")


def _winning(rules: Rules) -> str:
    if rules.require_all_caravans:
        return ("Once all three lanes are decided, you win only by taking all three "
                "(two of three is not enough).")
    return "Once all three lanes are decided, whoever takes two of them wins."


def _out_of_cards(rules: Rules) -> str:
    if rules.out_of_cards == "before_lanes":
        return ("A player whose hand runs out loses, even when the last card completed "
                "two lanes.")
    return ("A player whose hand runs out loses, unless that last card gives them two "
            "lanes of three.")


def _opening(rules: Rules) -> str:
    if rules.opening_mode == "simultaneous":
        return ("Opening: the first player puts a numeral on each of their three caravans in "
                "a row, then the other player does the same; neither sees the other's opening "
                "cards until all six are down. No face cards, discards or clears until then.")
    if rules.opening_mode == "none":
        return "No opening round: from the first turn any move is allowed."
    return ("Start round: players take turns putting one numeral on each of their own empty "
            "caravans. Until your three caravans are started you may not play face cards, "
            "discard or clear, and you draw nothing.")


def _hands(rules: Rules) -> str:
    draw = (f"after each move you draw one card if you hold fewer than {rules.hand_size}"
            if rules.draw_mode == "one"
            else f"after each move you draw back up to {rules.hand_size} cards")
    return f"You start with {_number(rules.opening_hand, 'card')}; {draw}."


def _mulligan(rules: Rules) -> str:
    if rules.mulligan == "rebuild":
        return "Every opening hand holds at least 3 numerals (the deck is rebuilt until it does)."
    if rules.mulligan == "reshuffle" or (rules.mulligan == "discard"
                                         and rules.opening_mode == "simultaneous"):
        return ("An opening hand with fewer than 3 numerals is shown to both players and "
                "reshuffled into the deck, and a new hand is dealt.")
    if rules.mulligan == "discard":
        return ("During the Start round, a player holding fewer numerals than empty caravans "
                "may discard a card (D<h>) and draw a replacement.")
    if rules.opening_mode == "none":
        return "No mulligan."
    return ("No mulligan: a player who cannot start all three caravans has no move and "
            "loses.")


def _exhaustion(rules: Rules) -> str:
    if rules.deck_exhaustion == "reshuffle_discards":
        return ("When your deck runs out, your discard pile is shuffled into a new deck "
                "(discards and removed cards go to their owner's pile).")
    return "When your deck runs out you draw nothing more, and your hand shrinks."


def _deck(rules: Rules) -> str:
    samples = resolved_samples(rules, rules.deck_size)
    if rules.deck_size is None:
        size = f"a random number of cards from {rules.deck_min} to {rules.deck_max}"
    else:
        size = f"{rules.deck_size} cards ({rules.deck_min} to {rules.deck_max} allowed)"
    source = f"{_number(samples, 'shuffled deck')} of 52 cards and " \
             f"{_number(rules.jokers_per_sample, 'Joker')}"
    how = {"balanced": "taken from each in turn", "imbalanced": "each from one chosen at random",
           "pooled": "all mixed together"}[rules.sampling]
    bound = ("" if rules.samples is not None else "as many as needed, ") + \
        f"{rules.samples_min} to {rules.samples_max} allowed"
    return f"Deck: {size}, from {source} ({bound}), {how}."


def _numerals(rules: Rules) -> str:
    cap = ("A caravan holds any number of numerals." if rules.max_numerals is None
           else f"A caravan holds at most {_number(rules.max_numerals, 'numeral')}.")
    return ("Numerals (A = 1, 2 to 10 at face value) go only on your own caravans. "
            "A caravan's value is the sum of its numerals. " + cap)


def _direction(rules: Rules) -> str:
    return ("A numeral must not repeat the rank of the caravan's last numeral. The second "
            "numeral sets the direction: ascending (ASC) if higher than the first, descending "
            "(DES) if lower. Every later numeral must follow the direction, or else have the "
            "caravan's suit (the suit of its last numeral); such a card may turn the "
            "direction.")


def _equal_ranks(rules: Rules) -> str:
    head = "When a removal leaves two equal ranks at the end of a caravan, "
    if rules.equal_rank_direction == "keep_previous":
        return head + "it keeps the direction it had before the removal."
    if rules.equal_rank_direction == "any":
        return head + "any direction is allowed (ANY)."
    return head + "it counts as descending (DES), turned by an odd number of Queens on the end."


def _faces(rules: Rules) -> str:
    where = ("on a numeral of any caravan, yours or the opponent's"
             if rules.faces_on_opponent
             else "only on a numeral of your own caravans (their effects still reach both "
                  "players)")
    example = ("P4F3 plays hand card 4 on slot 3 of caravan F." if rules.faces_on_opponent
               else "P4B3 plays hand card 4 on slot 3 of your caravan B (DEF: P4E3 on E).")
    return f"Face cards (J, Q, K and the Joker JO) go {where}; give the numeral's slot: {example}"


def _face_cap(rules: Rules) -> str:
    if rules.max_faces is None:
        return "A numeral may carry any number of face cards."
    jack = ("a Jack is refused there too" if rules.jack_respects_face_cap
            else "a Jack may still be played on it")
    return (f"A numeral carries at most {_number(rules.max_faces, 'face card')}; "
            f"when it is full, {jack}.")


def _match_suit(rules: Rules) -> str:
    if not rules.face_must_match_suit:
        return "A Jack or King may go on a numeral of any suit."
    return "A Jack or King must have the suit of the numeral it is played on."


def _jack(rules: Rules) -> str:
    text = "Jack: removes the numeral it is played on, with every face on it."
    if rules.jack_is_joker_without_jokers:
        text += " When your deck has no Jokers at all, a Jack acts as a Joker instead."
    return text


def _queen(rules: Rules) -> str:
    where = ("on the last numeral of a caravan only" if rules.queen_placement == "last"
             else "on any numeral; it counts only while its numeral is the last")
    if rules.queen_changes_suit and rules.queen_changes_direction:
        effect = "changes the caravan's suit to the Queen's and reverses its direction"
    elif rules.queen_changes_suit:
        effect = "changes the caravan's suit to the Queen's (the direction stays)"
    elif rules.queen_changes_direction:
        effect = "reverses the caravan's direction (the suit stays)"
    else:
        effect = "changes neither suit nor direction"
    return f"Queen: played {where}; it {effect}."


def _king(rules: Rules) -> str:
    if rules.king_mode == "add":
        return "King: adds the numeral's value again (two Kings: three times the value)."
    return "King: doubles the numeral's value (two Kings: four times)."


def _joker(rules: Rules) -> str:
    if rules.joker_ace_mode == "rank":
        sweep = ("removes every other numeral of the rank it is played on (Aces "
                 "included)")
    else:
        suits = ("suits as printed" if rules.joker_ace_suit_test == "printed"
                 else "suits as changed by Queens")
        sweep = ("played on a 2 to 10, removes every other numeral of that rank; played on "
                 f"an Ace, every other numeral of the Ace's suit ({suits})")
    target = ("The numeral it is played on stays, with the Joker on it."
              if rules.joker_target_survives
              else "The numeral it is played on goes too, with the Joker.")
    return f"Joker: {sweep}, from all six caravans, with their faces. {target}"


def _discard(rules: Rules) -> str:
    when = "" if rules.opening_mode == "none" else " (not during the opening)"
    return f"Instead of playing, you may discard a hand card: D3{when}."


def _clear(rules: Rules) -> str:
    if rules.clear_policy == "destroy_restart":
        return ("Destroy and restart: CB4 discards all of your caravan B and starts it again "
                "with the numeral at hand position 4; then you refill your hand.")
    if rules.clear_policy == "disabled":
        return "Caravans cannot be cleared."
    return "Clear: CA discards all of your caravan A, which starts again empty."


SECTIONS: tuple[tuple[str, tuple[Sentence, ...]], ...] = (
    ("Goal", (
        lambda _rules: ("ABC owns caravans A B C, DEF owns D E F. They face each other in "
                        "three lanes: A-D, B-E, C-F."),
        _sold,
        lambda _rules: ("A lane goes to the sold caravan with the higher value; a tie, or "
                        "two caravans not sold, leaves it open."),
        _winning,
        _out_of_cards,
    )),
    ("Cards and opening", (_deck, _hands, _mulligan, _opening, _exhaustion)),
    ("Numerals", (_numerals, _direction, _equal_ranks)),
    ("Face cards", (_faces, _face_cap, _match_suit, _jack, _queen, _king, _joker)),
    ("Discards and clearing", (_discard, _clear)),
)


def howto_lines(rules: SeatRules, width: int = 76) -> list[str]:
    """The how-to-play page for ``rules``, wrapped to ``width`` columns.

    A sentence that reads differently for the two seats is given once per seat, after its
    seat name (ABC's rules govern ABC's caravans, moves and deck).
    """
    width = max(width, 30)
    same = rules.abc == rules.def_
    lines = [f"How to play Caravan - rules: {preset_label(rules)}"]
    if not same:
        lines += textwrap.wrap(
            "The two seats play by different rules: a line starting with ABC or DEF applies "
            "to that seat's caravans, moves and deck.", width)
    for title, sentences in SECTIONS:
        lines += ["", title]
        for sentence in sentences:
            texts = (sentence(rules.abc), sentence(rules.def_))
            if texts[0] == texts[1]:
                labelled = [("", texts[0])]
            else:
                labelled = [("ABC: ", texts[0]), ("DEF: ", texts[1])]
            for label, text in labelled:
                lines += textwrap.wrap(label + text, width, initial_indent="  ",
                                       subsequent_indent="    ")
    return lines
