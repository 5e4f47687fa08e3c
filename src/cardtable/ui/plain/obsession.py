"""Obsession in plain line mode: prints boards and events, reads selections, works through pipes.

The shell never decides legality: selections are parsed by the shared grammar and the game
accepts or refuses the resulting action.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cardtable.engine.errors import IllegalAction
from cardtable.engine.match import MatchAbandoned, MatchListener
from cardtable.engine.protocol import GameState
from cardtable.games.obsession import explain, render, selection
from cardtable.games.obsession.actions import Action
from cardtable.games.obsession.cards import TEXT
from cardtable.games.obsession.events import Ended, TurnStarted
from cardtable.games.obsession.howto import HELP
from cardtable.games.obsession.observation import Observation
from cardtable.games.obsession.record import Script
from cardtable.games.obsession.rules import Rules
from cardtable.ui.plain.console import Console, EndOfInput

EOF_CAUSE = "eof"
QUIT_CAUSE = "quit"
MOVES_COMMAND = "moves"
QUIT_COMMANDS = ("quit", "exit")
HELP_COMMANDS = ("help", "?")

HELP_LINES = (
    *(f"+++ {line}" for line in HELP),  # the rules, written in the game package
    "+++ Commands: moves lists your legal moves, help (or ?) this text, quit (or exit)",
    "+++   leaves the game.",
)


def help_lines(rules: Rules) -> list[str]:
    """The help, with the rules of the game in play (as the full screen's help gives them)."""
    return [*HELP_LINES,
            f"+++ Rules in play: {rules.players} players, {rules.decks} deck(s), run-kill "
            f"{rules.run_kill}, {rules.kill_order}."]


class Table(MatchListener):
    """Prints what happens; shows pass screens between human turns when several humans play."""

    def __init__(self, console: Console, humans: Sequence[bool], *, quiet: bool = False,
                 pass_screens: bool | None = None) -> None:
        self.console = console
        self.humans = tuple(humans)
        self.quiet = quiet
        self.pass_screens = (sum(self.humans) >= 2) if pass_screens is None else pass_screens

    def on_action(self, state: GameState[Any, Any], seat: str, action: Any, event: Any) -> None:
        for item in event:
            if self.quiet:
                if isinstance(item, Ended):
                    for line in render.placings_block(item):
                        self.console.say(line)
                continue
            for line in render.event_lines(item, self.humans):
                self.console.say(line)
            if isinstance(item, TurnStarted) and self.pass_screens and self.humans[item.seat]:
                pass_screen(self.console, item.seat, getattr(state, "rules", None))


def pass_screen(console: Console, seat: int, rules: Rules | None = None) -> None:
    """Wait for the next player's Enter. ``quit`` or ``exit`` leaves the game there, as at
    Caravan's pass prompt; ``help`` or ``?`` shows the help and asks again; any other line
    hands the keyboard over."""
    while True:
        try:
            line = console.ask(render.pass_prompt(seat))
        except EndOfInput as ended:
            raise MatchAbandoned(f"P{seat + 1}", getattr(ended, "cause", EOF_CAUSE)) from None
        word = line.strip().lower()
        if word in QUIT_COMMANDS:
            raise MatchAbandoned(f"P{seat + 1}", QUIT_CAUSE)
        if word not in HELP_COMMANDS:
            return
        for help_line in (HELP_LINES if rules is None else help_lines(rules)):
            console.say(help_line)


class HumanSeat:
    """A person at this console: prompts, reads a selection, repeats until it is accepted.

    ``moves`` lists the legal moves (``legal`` gives the game's legal list for the seat to
    move); a refused play is explained from the legality table.
    """

    def __init__(self, console: Console, *, pass_screens: bool = False,
                 legal: Callable[[], Sequence[Action]] | None = None) -> None:
        self.console = console
        self.pass_screens = pass_screens
        self.legal = legal
        self.last: tuple[Observation, Action] | None = None

    def choose(self, observation: Observation) -> Action:
        if observation.phase == "swap" and self.pass_screens:
            pass_screen(self.console, observation.seat, observation.rules)
        for line in render.prompt_lines(observation):
            self.console.say(line)
        size, count = selection.expected(observation)
        while True:
            try:
                answer = self.console.ask(render.INPUT_PROMPT)
            except EndOfInput:
                raise MatchAbandoned(f"P{observation.seat + 1}", EOF_CAUSE) from None
            word = answer.strip().lower()
            if word in QUIT_COMMANDS:
                raise MatchAbandoned(f"P{observation.seat + 1}", QUIT_CAUSE)
            if word in HELP_COMMANDS:
                # Then what is being chosen again (the swap's cards scrolled away).
                for line in [*help_lines(observation.rules), *render.prompt_lines(observation)]:
                    self.console.say(line)
                continue
            if word == MOVES_COMMAND and self.legal is not None:
                moves = explain.legal_moves(observation, self.legal(), TEXT.__getitem__)
                self.console.say(f"+++ Legal moves: {moves}")
                continue
            positions, message = selection.parse(answer, size, count)
            if message is None and not positions and answer.strip():
                message = selection.no_number(size, count)  # a blank line just asks again
            if message is not None:
                self.console.say("!!! " + message)
            elif positions:
                action = selection.action_for(observation, positions)
                self.last = (observation, action)
                return action

    def rejected(self, error: IllegalAction) -> None:
        # The next choose() repeats the whole prompt, as the rules of the interface ask.
        message = error.message
        if self.last is not None:
            message = explain.explain_refusal(message, *self.last)
        self.console.say("!!! " + message)


class ReplaySeat:
    """Plays the recorded decisions; for a human seat it prints the prompts the person saw."""

    def __init__(self, script: Script, console: ReplayConsole, human: bool,
                 pass_screens: bool) -> None:
        self.script = script
        self.console = console
        self.human = human
        self.pass_screens = pass_screens

    def choose(self, observation: Observation) -> Action:
        if self.human:
            # The same prompts as in the recorded game; the console answers without reading.
            try:
                if observation.phase == "swap" and self.pass_screens:
                    self.console.ask(render.pass_prompt(observation.seat))
                for line in render.prompt_lines(observation):
                    self.console.say(line)
                self.console.ask(render.INPUT_PROMPT)
            except EndOfInput:
                raise MatchAbandoned(f"P{observation.seat + 1}",
                                     self.script.abandoned or EOF_CAUSE) from None
        return self.script.action(observation)

    def rejected(self, error: IllegalAction) -> None:
        self.script.rejected(error)


class RecordEnds(EndOfInput):
    """The replayed record of an abandoned game ends here, for the recorded ``cause``."""

    def __init__(self, cause: str) -> None:
        super().__init__(cause)
        self.cause = cause


class ReplayConsole(Console):
    """A console for replays: prompts are printed as they were, but nothing is read.

    Once the recorded decisions are used up in a record of an abandoned game, the question
    where the game stopped meets the end of the record (:class:`RecordEnds`, with the
    recorded cause): a quit was typed at a card prompt, so the pass prompts before it are
    answered as they were; any other cause (input ending, a signal) stops at the next one.
    """

    def __init__(self, script: Script) -> None:
        super().__init__()
        self.script = script

    def ask(self, prompt: str) -> str:
        self.stdout.write(prompt)
        cause = self.script.abandoned
        if (self.script.exhausted and cause is not None
                and (cause != QUIT_CAUSE or prompt == render.INPUT_PROMPT)):
            self.stdout.write("\n")
            self.stdout.flush()
            raise RecordEnds(cause)
        self.stdout.flush()
        return ""
