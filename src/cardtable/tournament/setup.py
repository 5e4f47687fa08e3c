"""From the command line's words to a tournament :class:`Config`, refusing bad input with one
line: the game and its rules (checked by ``load_game``, with the games' own messages), the
seats (checked by the bot registry), the gauntlet and the SPRT bounds."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from cardtable.engine.errors import GameError
from cardtable.engine.one_line import one_line
from cardtable.tournament.errors import TournamentError
from cardtable.tournament.schedule import Config, Entrant
from cardtable.tournament.summary import SprtSetting

PLAYER_RANGE = {"obsession": (2, 10), "austerity": (2, 26)}
TOURNAMENT_DEAL = "shuffled"
"""Austerity's deal in a tournament unless ``--deal`` says otherwise (the game's own default,
the hub's, is the deck file's order)."""


def load_rules(game: str, params: dict[str, Any]) -> Any:
    """``cardtable.load_game(game, **params)``, its refusals as :class:`TournamentError`."""
    import cardtable

    try:
        return cardtable.load_game(game, **params)
    except GameError as error:
        raise TournamentError(one_line(error.message)) from None


def game_params(game: str, *, rules: str | None = None, rule: Sequence[str] = (),
                rules_file: str | None = None, players: str | None = None,
                entrants: int = 2, extra: dict[str, str | None] | None = None) -> dict[str, Any]:
    """The ``load_game`` parameters of the rules options given for ``game``."""
    import cardtable

    if game not in cardtable.games():
        raise TournamentError(f"Unknown game '{one_line(game)}' (allowed: "
                              f"{', '.join(cardtable.games())}).")
    given_extra = {name: value for name, value in (extra or {}).items() if value is not None}
    params: dict[str, Any] = {}
    caravan_only = {"--rules": rules, "--rules-file": rules_file}
    if game == "caravan":
        if players is not None:
            raise TournamentError("Caravan is a two-player game: --players is not an option.")
        if rules is not None:
            params["rules"] = rules
        if rules_file is not None:
            params["rules_file"] = rules_file
        for item in rule:
            field, equals, value = item.partition("=")
            if not equals or not field.strip():
                raise TournamentError(f"--rule takes FIELD=VALUE (got '{one_line(item)}').")
            params[field.strip()] = value.strip()
    else:
        given = [option for option, value in caravan_only.items() if value is not None]
        if rule:
            given.append("--rule")
        if given:
            raise TournamentError(f"{given[0]} is a Caravan option, not one of {game}.")
        low, high = PLAYER_RANGE[game]
        if players is None:
            count = min(max(entrants, low), high)
        else:
            try:
                count = int(players)
            except ValueError:
                count = -1
            if not low <= count <= high:
                raise TournamentError(f"--players must be an integer from {low} to {high} "
                                      f"(got '{one_line(players)}').")
        params["players"] = count
    allowed = {"obsession": ("run_kill", "kill_order", "max_plays", "repeat_limit"),
               "austerity": ("deck", "tokens", "points", "deal"), "caravan": ()}[game]
    for name, value in given_extra.items():
        if name not in allowed:
            raise TournamentError(f"--{name.replace('_', '-')} is not an option of {game}.")
        params[name] = value
    if game == "austerity":
        # Every deal of a tournament its own game: the deck shuffled from the deal's seed
        # (``--deal file`` keeps the deck file's order, one game dealt again and again).
        params.setdefault("deal", TOURNAMENT_DEAL)
        for name in ("tokens", "points"):
            if name in params:
                try:
                    params[name] = int(params[name])
                except ValueError:
                    raise TournamentError(f"--{name} must be a whole number "
                                          f"(got '{one_line(str(params[name]))}').") from None
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
