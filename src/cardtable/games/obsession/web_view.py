"""Obsession as a web page draws it: a seat's view, the public view and a record's replay steps.

A view is the game's own observation JSON (:mod:`observation_json`, the one external bots
receive): a seat's view is made from that seat's observation, the public view from an
observation with the seat's hand left out. Cards are objects ``{"card": "9C", "id": "o12"}``
(``id`` names the physical card: tests prove by it that no hidden card is ever sent). To that
the view adds the game's name, its seats and rules.
"""

from __future__ import annotations

import functools
from typing import Any

from cardtable.engine.protocol import Result

Json = dict[str, Any]


@functools.cache
def _card(card: int) -> Json:
    from cardtable.games.obsession.observation_json import card_text

    return {"card": card_text(card), "id": f"o{card}"}


def obsession_view(obs: Any, public: bool = False, history: int = 12) -> Json:
    """``obs`` is a seat's observation; ``public`` leaves out the seat's hand."""
    from cardtable.games.obsession.observation_json import observation_json, public_json

    view = (public_json if public else observation_json)(obs, _card, history)
    view.update(game="obsession", seats=[player["seat"] for player in view["players"]],
                rules=obs.rules.to_json())
    viewer = None if public else view["seat"]
    view["history_text"] = [line_words(line, viewer) for line in view["history"]]
    view["last_move"] = last_move(view["history"], view["pile"], viewer)
    view["result_text"] = result_words(view)
    return view


def result_words(view: Json) -> str | None:
    """A finished game's places in words, "1st P2, 2nd P1, 3rd P3", from the view's placings
    (a game stopped short names the seats still holding cards); None before the end."""
    if view.get("phase") != "over":
        return None
    placed = list(view["placings"])
    text = ", ".join(f"{place_words(index + 1)} {seat}" for index, seat in enumerate(placed))
    left = [seat for seat in view["seats"] if seat not in placed]
    if left:
        named = left[0] if len(left) == 1 else ", ".join(left[:-1]) + " and " + left[-1]
        text += ("; " if text else "") + named + " still holding cards"
    return text


PLACES = ("1st", "2nd", "3rd")


def place_words(place: int) -> str:
    """``1`` → "1st", ``4`` → "4th"."""
    return PLACES[place - 1] if 1 <= place <= len(PLACES) else f"{place}th"


def card_words(text: str) -> str:
    """A card's text as a line of words shows it: ``9C`` → "9♣", ``R`` → "joker"."""
    from cardtable.cards import SUIT_GLYPHS

    if text in ("R", "JO"):
        return "joker"
    return text[:-1] + SUIT_GLYPHS.get(text[-1], text[-1])


def cards_words(texts: list[str]) -> str:
    """Cards in a line of words: "9♣ 9♠", a lone joker "a joker"."""
    if texts in (["R"], ["JO"]):
        return "a joker"
    return " ".join(map(card_words, texts))


def _seat(number: int) -> str:
    """A history line's seat (1-based, as the record writes it) as the view names it."""
    from cardtable.games.obsession.state import seat_name

    return seat_name(number - 1)


SOURCES = {"hand": "hand", "visible": "face-up cards", "hidden": "face-down cards"}

EFFECTS = {"kill": "burns the pile", "reverse": "reverses the direction",
           "extra": "plays again"}


def line_words(line: Json, viewer: str | None) -> str:
    """One public history line (the record's JSON) in words, as ``viewer`` (a seat, or None
    for anyone) reads it: "P2 picked up the pile (7 cards)", "You played 9♣ 9♠ from your
    hand"."""
    kind = line.get("t")
    seat = _seat(line["seat"]) if isinstance(line.get("seat"), int) else None
    mine = seat is not None and seat == viewer
    who, their = ("You", "your") if mine else (seat or "", "their")
    if kind == "play":
        cards = cards_words(list(line.get("cards", [])))
        source = SOURCES.get(line.get("from", ""), str(line.get("from", "")))
        text = f"{who} played {cards} from {their} {source}"
        effects = [EFFECTS[effect] for effect in line.get("effects", []) if effect in EFFECTS]
        if line.get("auto"):
            effects.insert(0, "the opening play, made by the game")
        return text + (f" ({', '.join(effects)})" if effects else "")
    if kind == "pickup":
        count = int(line.get("count", 0))
        text = f"{who} picked up the pile ({count} card{'s' if count != 1 else ''})"
        threes = int(line.get("threes_removed", 0))
        return text + (f"; {threes} three{'s' if threes != 1 else ''} taken out"
                       if threes else "")
    if kind == "blind":
        return (f"{who} turned up face-down card {line.get('index')}: "
                f"{cards_words([str(line.get('card'))])}")
    if kind == "swap":
        cards = " ".join(card_words(card) for card in line.get("visible", []))
        return f"{who} laid {cards} face up"
    if kind == "start":
        return f"{who} {'start' if mine else 'starts'}"
    if kind == "out":
        return f"{who} went out ({place_words(int(line.get('place', 0)))})"
    if kind == "end":
        placings = [_seat(number) for number in line.get("placings", [])]
        return "The game is over: " + ", ".join(
            f"{place_words(index + 1)} {seat_}" for index, seat_ in enumerate(placings))
    return f"{who} {kind}".strip()


MOVES = ("play", "pickup", "blind", "swap")
"""The history lines that are a seat's own move (the others say what followed from one)."""


def last_move(history: list[Json], pile: list[Json], viewer: str | None) -> Json | None:
    """The latest move as the board marks it: its seat, its words and the ids of the cards it
    put on the pile (the top of the pile, when it still holds them)."""
    for line in reversed(history):
        if line.get("t") in MOVES:
            break
    else:
        return None
    ids: list[str] = []
    if line["t"] == "play":
        played = list(line.get("cards", []))
        top = pile[:len(played)]
        if [card["card"] for card in top] == played[::-1] or \
                sorted(card["card"] for card in top) == sorted(played):
            ids = [card["id"] for card in top]
    return {"seat": _seat(line["seat"]), "text": line_words(line, viewer), "cards": ids}


def seat_view(state: Any, seat: str, history: int) -> Json:
    return obsession_view(state.observation(seat), history=history)


def public_view(state: Any, history: int) -> Json:
    return obsession_view(state.observation(state.seats[0]), public=True, history=history)


def replay_views(record: str, history: int) -> tuple[list[Json], list[Json], Result | None]:
    """The record checked by ``obsession --replay``'s own check (``check_replay``), then
    replayed; each step the public view with every hand. A game a program forfeited ends with
    its record's forfeit line."""
    from cardtable.engine.match import Forfeit, forfeit_result
    from cardtable.engine.record import recorded_forfeit
    from cardtable.games.obsession.checked_replay import check_replay
    from cardtable.games.obsession.record import load

    checked = check_replay(load(record.splitlines(), "record"))
    game = checked.start()

    def view() -> Json:
        shown = obsession_view(game.observation(0), public=True, history=history)
        shown["hands"] = {seat: obsession_view(game.observation(seat), history=history)["hand"]
                          for seat in game.seats}
        return shown

    frames, moves = [view()], []
    for action in checked.actions:
        seat = game.to_move
        moves.append({"seat": seat, "move": game.action_text(action)})
        game.apply(action)
        frames.append(view())
    result = game.result
    forfeit = recorded_forfeit(checked.loaded.lines[-1][1]) if checked.loaded.lines else None
    if result is None and forfeit is not None:
        # The game stopped at a forfeit; ``check_replay`` matched the record's forfeit line.
        result = forfeit_result(game, Forfeit(*forfeit))
    return frames, moves, result


def table_state(game: Any, seed: int, people: list[bool]) -> Any:
    """The repetition guard leaves the people's seats alone, wherever they sit, as in the
    terminal (the record names them, and its replay deals the same way)."""
    from cardtable.games.obsession.state import ObsessionState

    return ObsessionState.new(game.rules, people, seed)


def recorder(state: Any, writer: Any, seed: int, players: list[str]) -> Any:
    """The ``obsession --record`` listener of a web table (its first lines written now)."""
    from cardtable.games.obsession.record import RecordListener, header

    # A program keeps its name (``exec:NAME``): ``exec`` alone names no seat kind.
    names = tuple("human" if kind == "human" else kind.removeprefix("bot:")
                  if kind.startswith("bot:exec:")
                  else kind.removeprefix("bot:").split(":")[0] for kind in players)
    return RecordListener(writer.write, header(state, seed, names))
