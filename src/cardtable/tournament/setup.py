"""From the command line's words to a tournament :class:`Config`, refusing bad input with one
line: the game and its parameters (each checked by its :class:`~cardtable.engine.description.Param`
of the game's description, then by ``load_game``), the seats (checked by the bot registry),
the gauntlet and the SPRT bounds."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.engine.description import GameDescription, Param
from cardtable.engine.errors import GameError
from cardtable.engine.game_registry import description, descriptions
from cardtable.engine.one_line import one_line
from cardtable.tournament.errors import TournamentError
from cardtable.tournament.schedule import Config, Entrant
from cardtable.tournament.summary import SprtSetting

RULE = "--rule"
"""The option of a free rule field (``--rule FIELD=VALUE``), for games with ``rule_fields``."""
NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def load_rules(game: str, params: dict[str, Any]) -> Any:
    """``cardtable.load_game(game, **params)``, its refusals as :class:`TournamentError`."""
    import cardtable

    try:
        return cardtable.load_game(game, **params)
    except GameError as error:
        raise TournamentError(one_line(error.message)) from None


def described(game: str) -> GameDescription:
    """The description of ``game``, or :class:`TournamentError` with the registry's message."""
    try:
        return description(game)
    except GameError as error:
        raise TournamentError(one_line(error.message)) from None


def offered(game: GameDescription) -> dict[str, Param]:
    """The parameters a tournament of ``game`` takes: all of the game's but those that say who
    sits at the table (``seat_params``: every seat of a tournament is a bot)."""
    return {param.name: param for param in game.params if param.name not in game.seat_params}


def tournament_params() -> dict[str, list[tuple[GameDescription, Param]]]:
    """Every parameter a tournament of some known game takes, by name, with the games that take
    it (in the registry's order): the command line's options."""
    found: dict[str, list[tuple[GameDescription, Param]]] = {}
    for game in descriptions():
        for name, param in offered(game).items():
            found.setdefault(name, []).append((game, param))
    return found


def owners_text(games: Sequence[GameDescription]) -> str:
    """``Caravan``, ``Obsession and Austerity``: the games that take an option."""
    titles = [game.title for game in games]
    return ", ".join(titles[:-1]) + " and " + titles[-1] if len(titles) > 1 else "".join(titles)


def _not_an_option(option: str, game: GameDescription, owners: Sequence[GameDescription],
                   name: str = "") -> TournamentError:
    """``--rules is a Caravan option, not one of obsession.``; the number of players (the
    parameter ``name``) for a game of fixed seats: ``Caravan is a two-player game: --players
    is not an option.``"""
    low, high = game.seat_counts
    if low == high and any(owner.players_param == name for owner in owners):
        count = NUMBERS.get(low, str(low))
        return TournamentError(f"{game.title} is a {count}-player game: {option} is not an "
                               "option.")
    if len(owners) == 1:
        title = owners[0].title
        article = "an" if title[:1].lower() in "aeiou" else "a"
        return TournamentError(f"{option} is {article} {title} option, not one of {game.name}.")
    return TournamentError(f"{option} is not an option of {game.name}.")


def game_params(game: str, given: Mapping[str, str | None] | None = None, *,
                rule: Sequence[str] = (), entrants: int = 2) -> dict[str, Any]:
    """The ``load_game`` parameters of a tournament of ``game``: ``given`` maps a parameter's
    name to its text on the command line (None: not given), ``rule`` holds the ``--rule
    FIELD=VALUE`` texts. The number of players defaults to the number of seats (within the
    game's seat counts), and the game's ``table_params`` (Austerity's shuffled deal) apply
    unless given."""
    chosen = described(game)
    takes = offered(chosen)
    texts = {name: text for name, text in (given or {}).items() if text is not None}
    for name in texts:
        if name not in takes:
            option = Param(name, "").option
            others = [owner for owner, _param in tournament_params().get(name, [])]
            raise _not_an_option(option, chosen, others, name)
    if rule and not chosen.rule_fields:
        raise _not_an_option(RULE, chosen, [one for one in descriptions() if one.rule_fields])
    params: dict[str, Any] = {}
    players = chosen.players_param
    if players is not None and players not in texts:
        low, high = chosen.seat_counts
        params[players] = min(max(entrants, low), high)
    for name, param in takes.items():
        if name in texts:
            try:
                params[name] = param.check(texts[name])
            except GameError as error:
                raise TournamentError(one_line(error.message)) from None
    for item in rule:
        field, equals, value = item.partition("=")
        if not equals or not field.strip():
            raise TournamentError(f"{RULE} takes FIELD=VALUE (got '{one_line(item)}').")
        params[field.strip()] = value.strip()
    # Austerity: every deal of a tournament its own game, the deck shuffled from the deal's
    # seed (``--deal file`` keeps the deck file's order, one game dealt again and again).
    for name, value in chosen.table_params.items():
        params.setdefault(name, value)
    return params


def entrants(game: Any, seats: Sequence[str]) -> tuple[Entrant, ...]:
    """The ``--seat`` specs as entrants, each checked by seating it once; a spec given twice
    gets a second label (``normal#2``)."""
    from cardtable.agents.registry import make_seat, parse_spec

    result: list[Entrant] = []
    chair = game.seats[0]
    for text in seats:
        try:
            spec = parse_spec(game.name, text, calibration=True)
            make_seat(game, spec, chair, 0)
        except GameError as error:
            raise TournamentError(one_line(str(error))) from None
        label = base = str(spec)
        number = 1
        while any(entrant.label == label for entrant in result):
            number += 1
            label = f"{base}#{number}"
        result.append(Entrant(label, str(spec)))
    return tuple(result)


def make_config(game_name: str, params: dict[str, Any], seats: Sequence[str],
                gauntlet: str | None, seed: int) -> Config:
    game = load_rules(game_name, params)
    players = len(game.seats)
    if len(seats) < 2:
        raise TournamentError("A tournament needs at least two --seat options.")
    if len(seats) < players:
        raise TournamentError(f"A {players}-player game needs at least {players} --seat options "
                              f"(got {len(seats)}).")
    people = entrants(game, seats)
    chosen = None
    if gauntlet is not None:
        wanted = gauntlet.strip().lower()
        for entrant in people:
            if entrant.label.lower() == wanted or entrant.spec.lower() == wanted:
                chosen = entrant.label
                break
        if chosen is None:
            raise TournamentError(f"--gauntlet '{one_line(gauntlet)}' is none of the seats "
                                  f"({', '.join(entrant.label for entrant in people)}).")
    return Config(game_name, params, players, people, chosen, seed)


def parse_sprt(text: str, config: Config) -> SprtSetting:
    """``ELO0,ELO1`` with ELO0 < ELO1, for a two-player game between exactly two seats."""
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        elo0, elo1 = (float(part) for part in parts)
        if not (math.isfinite(elo0) and math.isfinite(elo1)) or elo0 >= elo1:
            raise ValueError
    except ValueError:
        raise TournamentError(f"--sprt takes ELO0,ELO1 with ELO0 < ELO1, such as 0,50 "
                              f"(got '{one_line(text)}').") from None
    if config.players != 2 or len(config.entrants) != 2:
        raise TournamentError("--sprt tests one seat against another: give exactly two --seat "
                              "options in a two-player game.")
    return SprtSetting(elo0, elo1)
