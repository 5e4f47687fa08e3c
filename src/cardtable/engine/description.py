"""What a game tells the rest of cardtable: one :class:`GameDescription` per game.

A game package registers one description under the entry-point group ``cardtable.games``
(:mod:`cardtable.engine.game_registry` reads them); the command lines, the launcher, the web
server, tournaments, RL environments, the bot protocol and the benchmarks ask it, never the
game's name. The built-in games register theirs through cardtable's own ``pyproject.toml``, a
game from outside through its own (``docs/plugins.md``).

A description holds no state and imports its game lazily: reading every description is cheap.
Everything a shell may draw (a terminal app, a web page) is named by an import path
(``"package.module:function"``) and imported only when used, so a game package never imports
the layers above it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from cardtable.engine.errors import GameError, GameParamsError
from cardtable.engine.external_adapter import ExternalAdapter as ExternalAdapter
from cardtable.engine.external_adapter import observed_adapter
from cardtable.engine.protocol import Result

if TYPE_CHECKING:
    from cardtable.engine.search import SearchParts

Json = dict[str, Any]


# --------------------------------------------------------------------------- parameters


@dataclass(frozen=True)
class Param:
    """One parameter of ``load_game``: its type, default, limits and the one message every
    shell gives for a bad value.

    ``kind`` is ``int`` (from ``low`` to ``high``, either bound open when None), ``choice``
    (one of ``choices``), ``text`` or ``file`` (a path on the machine that loads the game:
    never offered where the request comes from someone else, such as the web).
    ``option`` is the command line's option (``--run-kill``), named in the messages.
    ``none`` lets the value ``None`` (written ``none``) through for an ``int``.
    """

    name: str
    help: str
    kind: Literal["int", "choice", "text", "file"] = "text"
    default: Any = None
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    none: bool = False

    @property
    def option(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def allowed(self) -> str:
        """What the parameter takes, in words (``an integer from 2 to 8``)."""
        if self.kind == "int":
            if self.low is not None and self.high is not None:
                text = f"an integer from {self.low} to {self.high}"
            elif self.low is not None:
                text = f"an integer >= {self.low}"
            elif self.high is not None:
                text = f"an integer <= {self.high}"
            else:
                text = "an integer"
            return text + " or none" if self.none else text
        if self.kind == "choice":
            return " or ".join(self.choices)
        return "a file name" if self.kind == "file" else "text"

    def message(self, value: object) -> str:
        """The refusal of ``value``: ``--run-kill must be an integer from 2 to 8 (got 'x')``."""
        from cardtable.engine.one_line import one_line, shortened

        return f"{self.option} must be {self.allowed} (got '{shortened(one_line(str(value)), 40)}')"

    def check(self, value: object) -> Any:
        """``value`` as the game takes it (an ``int`` for an integer parameter, text as given
        on a command line included), or :class:`GameParamsError` with :meth:`message`."""
        if self.kind == "int":
            if self.none and (value is None or (isinstance(value, str)
                                                and value.strip().lower() == "none")):
                return None
            number: int | None
            if isinstance(value, bool | float):
                number = None
            else:
                try:
                    number = int(str(value).strip())
                except ValueError:
                    number = None
            if number is None or (self.low is not None and number < self.low) \
                    or (self.high is not None and number > self.high):
                raise GameParamsError(self.message(value))
            return number
        if self.kind == "choice":
            if not isinstance(value, str) or value not in self.choices:
                raise GameParamsError(self.message(value))
            return value
        if not isinstance(value, str):
            raise GameParamsError(self.message(value))
        return value

    def json(self) -> Json:
        """The parameter as a form draws it (the web's catalogue, JSON Schema words)."""
        schema: Json = {"name": self.name, "help": self.help, "kind": self.kind,
                        "default": self.default, "allowed": self.allowed}
        if self.kind == "int":
            schema.update(minimum=self.low, maximum=self.high, nullable=self.none)
        if self.kind == "choice":
            schema["choices"] = list(self.choices)
        return schema


def checked_params(params: Sequence[Param], given: Mapping[str, Any], game: str
                   ) -> dict[str, Any]:
    """Every parameter of ``params``: the given value checked, or its default. An unknown name
    is refused with the game's list of parameters."""
    known = {param.name: param for param in params}
    for name in given:
        if name not in known:
            raise GameParamsError(f"Unknown parameter '{name}' for {game} "
                                  f"(allowed: {', '.join(known)}).")
    return {name: (param.check(given[name]) if name in given else param.default)
            for name, param in known.items()}


# --------------------------------------------------------------------------- bots


@dataclass(frozen=True)
class BotSpec:
    """A parsed bot spec: its name, its options, and for raw bots the text after the colon
    (``exec:COMMAND``)."""

    name: str
    options: Mapping[str, str] = field(default_factory=dict)
    raw: str = ""

    def __str__(self) -> str:
        if self.raw:
            return f"{self.name}:{self.raw}"
        if not self.options:
            return self.name
        return self.name + ":" + ",".join(f"{key}={value}" for key, value in self.options.items())


class UnknownBot(GameError):
    """A bot spec names no bot of the game, or gives it options it does not take."""


def no_options(spec: BotSpec) -> None:
    """Refuse any option: for bots that take none."""
    if spec.options:
        key = next(iter(spec.options))
        raise UnknownBot(f"The bot '{spec.name}' takes no option '{key}'.")


BotFactory = Callable[[Any, BotSpec, str, "int | str"], Any]
"""``factory(game, spec, seat, seed)`` → a seat of the match loop
(:class:`cardtable.engine.match.Seat`) for the seat named ``seat`` of the loaded ``game``."""


@dataclass(frozen=True)
class Bot:
    """A bot a game offers: its name, how to make it and one line saying what it does. A
    ``calibration`` bot (one that sees more than its seat may) plays only in tournaments and
    benchmarks; a ``raw`` bot takes the whole text after ``NAME:`` (``exec:COMMAND``);
    ``instant`` bots choose in microseconds (the web server runs them on its event loop)."""

    name: str
    factory: BotFactory
    summary: str = ""
    calibration: bool = False
    raw: bool = False
    instant: bool = False


# --------------------------------------------------------------------------- command line
# --- a game's own command, ``cardtable NAME ...`` ---


@dataclass(frozen=True)
class GameCommand:
    """A game's own command on cardtable's command line, ``cardtable NAME ARGS ...``
    (:attr:`GameDescription.command`)."""

    function: str
    """``"package.module:function"``: called with the arguments after the game's name (a list
    of texts), it returns the exit status. Imported only when the command runs."""
    summary: str
    """Its one line in ``cardtable --help`` (``play Caravan (see: caravan --help)``)."""
    plays: bool = True
    """Whether the command plays the game (``cardtable --help`` lists it with the commands
    that do, first) rather than giving the game's tools (listed with the tools)."""


# --------------------------------------------------------------------------- places


def ranks_of(scores: Sequence[float]) -> list[int]:
    """0-based places for ``scores`` (higher is better), tied seats sharing the best place of
    their group and the next group skipping as many (``[5, 5, 3]`` → ``[0, 0, 2]``)."""
    return [sum(1 for other in scores if other > score) for score in scores]


def winners_first(result: Result, seats: Sequence[str]) -> list[int]:
    """Places when only winning counts: the winners first, everyone else after them; nobody
    won (a draw, an abandoned game): everyone shares the first place."""
    if not result.winners:
        return [0] * len(seats)
    return ranks_of([1.0 if seat in result.winners else 0.0 for seat in seats])


# --------------------------------------------------------------------------- the game


class Game(Protocol):
    """A loaded game (``load_game(name, **params)``): rules fixed, no state of its own."""

    @property
    def name(self) -> str: ...

    @property
    def seats(self) -> tuple[str, ...]: ...

    def new_state(self, seed: Any = None) -> Any: ...

    def state_from_position(self, text: str) -> Any: ...

    def num_actions(self) -> int: ...


class GameDescription:
    """Everything the shells know of one game. Subclass it, set the class attributes and
    override what the game has; the defaults describe a game without that part.

    Required: :attr:`name`, :attr:`title`, :meth:`load` and :meth:`bots` (a game may offer
    none of its own: ``random``, ``ismcts`` and ``exec`` play every game whose states follow
    the protocol).
    """

    name: str = ""
    """The game's name: ``cardtable tournament NAME``, ``load_game(NAME)``, records."""
    title: str = ""
    """The game's name as a person reads it (``Caravan``)."""
    summary: str = ""
    """One line saying what the game is."""
    list_position: int = 100
    """Where the game comes in lists of games (then by name): cardtable's own games are 0, 1
    and 2; a game from outside keeps the default."""
    params: tuple[Param, ...] = ()
    """The parameters of :meth:`load`, written once for every shell."""
    seat_counts: tuple[int, int] = (2, 2)
    """The fewest and the most seats a table has."""
    players_param: str | None = None
    """The parameter that sets the number of seats (``players``), or None when it is fixed."""
    file_params: tuple[str, ...] = ()
    """Parameters naming files on the machine that loads the game: refused from the web."""
    bot_params: Mapping[str, Any] = {}
    """Parameters a game between bots gets unless given: its length caps."""
    table_params: Mapping[str, Any] = {}
    """Parameters a table of many games (a tournament, a quick match) gets unless given: a
    shuffled deal where the game's own default deals one fixed game."""
    presets: tuple[str, ...] = ()
    """Named rule sets (``load(rules=NAME)``), first the default."""
    max_moves: int | None = None
    """Moves after which a game between bots is stopped as a stalemate when the game has no
    cap of its own."""
    terminal_app: str | None = None
    """``module:function`` of the full-screen terminal table, if the game has one."""
    web_page: str | None = None
    """The template of the game's own web table page; None: the generic page."""
    instant_bots: tuple[str, ...] = ("random",)
    """Bots whose choice takes microseconds (the web runs them on its event loop)."""

    def load(self, **params: Any) -> Any:
        """The game with rules ``params``, or :class:`GameParamsError` with the message every
        shell prints."""
        raise NotImplementedError

    def bots(self) -> Sequence[Bot]:
        """The game's own bots (the generic ones are added by ``cardtable.agents``)."""
        return ()

    def search_worlds(self) -> Any:
        """``factory(game, omniscient)`` → the worlds of the generic search (``ismcts``) for
        this game, or None to search through the state protocol
        (``game.sample_world(observation, seed)``)."""
        return None

    def places(self, result: Result, seats: Sequence[str]) -> list[int]:
        """Each seat's 0-based place (tied seats share the best place of their group): one
        ranking for ratings, tournaments and RL rewards."""
        return winners_first(result, seats)

    def seat_view(self, state: Any, seat: str) -> Json:
        """What ``seat`` may see, as JSON (the web page of that seat), from its observation
        only."""
        raise NotImplementedError

    def public_view(self, state: Any) -> Json:
        """What anyone may see (spectators, a table's public page)."""
        raise NotImplementedError

    def external(self) -> ExternalAdapter | None:
        """The game's face for external programs (docs/bots.md), or None if they cannot play
        it through this protocol. By default, for a description that gives
        :meth:`observation_json`, the adapter built from it, :meth:`rules_json` and the
        game's sampled worlds (:func:`cardtable.engine.external_adapter.observed_adapter`)."""
        if type(self).observation_json is GameDescription.observation_json:
            return None
        return observed_adapter(self)

    def howto(self, preset: str | None = None) -> list[str]:
        """How to play, as lines: the first is the title."""
        return [self.title, self.summary]

    def record_rules(self, game: Any) -> Json:
        """The rules of a loaded game as a record's header stores them, from which
        :meth:`load_recorded` loads the same game."""
        raise NotImplementedError

    def load_recorded(self, rules: Mapping[str, Any]) -> Any:
        """The game a record's header rules describe."""
        return self.load(**rules)

    # --- tournaments and RL environments ---

    rule_fields: bool = False
    """Whether :meth:`load` takes free rule fields besides :attr:`params` (Caravan's
    ``max_faces=2``, ``abc.hand_size=6``): ``cardtable tournament``'s ``--rule FIELD=VALUE``
    passes each as a parameter of its own, its value as text."""
    seat_params: tuple[str, ...] = ()
    """Parameters that say who sits at the table rather than how the game is played
    (Obsession's ``humans``): a game between bots (a tournament) never offers them."""
    rl_environment: str | None = None
    """``"package.module:NAME"``: the game's part of its reinforcement-learning environments
    (``cardtable.envs.env(name)``), imported only by them. The object has ``encoder(game)``,
    which turns a seat's observation into a fixed-length vector (the protocol
    ``cardtable.envs.parts.Encoder``), and may have ``render(state, seat)``,
    ``rewards(game, result)`` and ``max_steps`` (docs/rl.md, "A game's part"). None: the game
    has no such vector, and no environment."""

    def stopped(self, result: Result) -> bool:
        """Whether the rules stopped the game short of an end (a cap on its length, a
        repetition guard) rather than ended it: an RL environment truncates such a game
        instead of terminating it. By default, a result whose details say ``stalemate``."""
        return result.details.get("stalemate") is True

    # --- web ---

    web_notes: str = ""
    """How a person plays on the game's own web page (:attr:`web_page`), in a few sentences:
    the how-to page's "On this site". Empty: the generic table page's own words."""
    view_history: int = 12
    """How many of the latest moves a view carries (:meth:`seat_view`, :meth:`public_view`):
    a web page's frames stay small however long the game."""

    def table_state(self, game: Any, seed: int, people: Sequence[bool]) -> Any:
        """The state a table of the loaded ``game`` starts from, dealt from ``seed``;
        ``people[i]`` is true where seat i is a person. By default ``game.new_state(seed)``;
        a game whose rules treat people and bots apart (Obsession's repetition guard) deals
        for them here, as its record's replay does."""
        return game.new_state(seed)

    def form_fields(self) -> Sequence[tuple[str, Sequence[Param]]]:
        """The free rule fields of a game with :attr:`rule_fields`, as a form offers them
        folded away: each field's name with one parameter for every seat (``opening_mode``)
        or one per seat (``abc.max_faces``, ``def.max_faces``, in the order of the seats). A
        parameter's default is None: left blank, the rule set's value stays."""
        return ()

    def table_recorder(self, state: Any, writer: Any, seed: int,
                       players: Sequence[str]) -> Any:
        """A match listener (:class:`cardtable.engine.match.MatchListener`) that writes the
        record of the game played from ``state`` (dealt from ``seed``) through ``writer``
        (a :class:`cardtable.engine.record.RecordWriter`) as the game's own command line
        records it, its first lines written at once; ``players[i]`` says who sits at seat i
        (``human``, ``bot:SPEC``). None: the record of the one format with nothing of the
        game's own (the rules of :meth:`record_rules`, an action line per move in notation,
        the result line)."""
        return None

    def replay_views(self, record: str) -> tuple[list[Json], list[Json], Result | None] | None:
        """The steps of a finished game's record as a replay page shows them: every public
        view (:meth:`public_view`) from the deal to the end, each with every seat's hidden
        cards under ``hands`` (a finished game hides nothing); the moves
        (``{"seat", "move"}``); the result. The record is checked line by line by the game's
        own replay; a bad one raises :class:`~cardtable.engine.errors.GameError` (or
        ``ValueError``). None: the record is replayed as the one format (its rules, seed and
        actions) and each step shows every seat's view."""
        return None

    # --- command lines and terminal ---

    bench: str | None = None
    """``"package.module:function"`` of the game's benchmark, ``cardtable bench NAME``: called
    with the rest of the command line (a list of texts), it returns the exit status. None: the
    game has none."""
    # :attr:`terminal_app`'s function is called with no argument and returns the game's part
    # of the launcher (``cardtable.ui.tui.launch.GameForm``): its column of the form and how
    # its table is played. A game without one gets a form drawn from :attr:`params` and its
    # bots, and is played on the generic terminal table, as ``cardtable play NAME`` plays it.

    # --- a game's own command, ``cardtable NAME ...`` ---
    command: GameCommand | None = None
    """The game's own command on cardtable's command line (``cardtable caravan``), named by
    the game's name; a command of cardtable's own of the same name (``play``, ``serve``) keeps
    that name. None: the game has none (``cardtable play NAME`` plays it all the same)."""

    # --- records ---

    replay_command: str = "cardtable replay"
    """The command that replays the game's records, before the file's name: a replay given
    another game's record names it ("replay it with: caravan --replay FILE")."""
    replay_app: str | None = None
    """``"package.module:function"`` of the game's own replay on the command line (its line
    mode, its full screen): ``cardtable replay FILE [OPTIONS]`` calls it with ``[FILE,
    *OPTIONS]`` and returns its exit status. None: ``cardtable replay`` shows the record with
    the generic replay (:attr:`record_replay` checks it, else the game's description)."""
    record_replay: str | None = None
    """``"package.module:function"``: ``function(path, lines)`` reads and checks a record of
    the game that holds more than its rules, seed and actions (a dealt deck, a program's
    conversation) and returns it replayed
    (:class:`cardtable.engine.record_replay.ReplayedMatch`), raising
    :class:`~cardtable.engine.errors.RecordError` at the first line that does not fit. None:
    the record is replayed through the description alone (:meth:`load_recorded`,
    ``new_state(seed)``, every action line applied in notation, the result compared)."""
    former_records: str | None = None
    """``"package.module:NAME"`` of the reader of the game's former record dialect, for a game
    that wrote records before the one format: ``NAME.recognizes(first_line_object)`` and
    ``NAME.upgrade(path, lines)`` (the protocol
    :class:`cardtable.engine.record_upgrade.FormerDialect`). None: the game has none."""

    # --- agents ---

    def search(self) -> SearchParts | None:
        """The game's own parts of the search bots (``ismcts``, ``omniscient``): its worlds,
        rollouts, default exploration and opponent model, and its own options
        (:class:`cardtable.engine.search.SearchParts`). None: the search plays the game
        through the state protocol (worlds dealt by ``game.sample_world(observation, seed)``,
        uniformly random rollouts, rewards by :meth:`places`). By default the parts of
        :meth:`search_worlds` when it gives worlds, with the generic rollouts and options."""
        worlds = self.search_worlds()
        if worlds is None:
            return None
        from cardtable.engine.search import SearchParts

        return SearchParts(worlds)

    def observation_json(self, observation: Any) -> Json:
        """A seat's observation as JSON, from the observation alone: what an external
        program is sent (docs/bots.md). A description that gives it (and the game
        ``game.sample_world(observation, seed)`` and the notation ``state.action_text`` /
        ``state.parse_action``) has the default :meth:`external` adapter."""
        raise NotImplementedError

    def rules_json(self, game: Any) -> Json:
        """The rules of the loaded ``game`` as an external program is told them (``hello``).
        By default the record's rules (:meth:`record_rules`), or nothing for a game whose
        records keep none."""
        try:
            return self.record_rules(game)
        except NotImplementedError:
            return {}
