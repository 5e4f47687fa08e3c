"""Austerity on the full screen: watch a table of the player programs' strategies (shenzi,
banzai, ed) play one game, turn by turn, with the hub's output in the log.

The game is the hub's own :class:`~cardtable.games.austerity.state.AusterityState` asked by the
players' strategy functions and applied with ``state.apply``, exactly as ``cardtable austerity
simulate`` plays it (every player's model of the table equals the hub's table); the log lines
are the hub's stdout lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import RichLog, Static

from cardtable.engine.errors import IllegalAction
from cardtable.engine.option_refusals import unknown_bot_message
from cardtable.games.austerity.codec import action_line, newcard_line, winners_text
from cardtable.games.austerity.deck import DeckError, load_deck, parse_deck
from cardtable.games.austerity.rules import COLOURS, INT_MAX, Card, letter
from cardtable.games.austerity.simulate import DEFAULT_MAX_TURNS
from cardtable.games.austerity.state import AusterityState
from cardtable.games.austerity.strategies import STRATEGIES
from cardtable.ui.tui.common import PRESS_ESC, HelpScreen, TableApp, TooSmall, error_text
from cardtable.ui.tui.tally import WinTally
from cardtable.ui.tui.theme import Theme, make_theme

BUNDLED_DECK = "medium.deck"
"""The deck shipped with the package (the same cards as ``tests/austerity/decks``)."""
MIN_PLAYERS = 2
MAX_PLAYERS = 26


@dataclass(frozen=True)
class AusterityTable:
    """A game to watch: the line-up (seat A first), the deck and the two numbers."""

    lineup: tuple[str, ...]
    deck: tuple[Card, ...]
    deck_name: str
    tokens: int
    points: int

    def rotated(self) -> AusterityTable:
        """The same table with every program one seat on (what Ctrl+R plays next)."""
        lineup = self.lineup[1:] + self.lineup[:1]
        return AusterityTable(lineup, self.deck, self.deck_name, self.tokens, self.points)

    # The launcher's table (``cardtable.ui.tui.launch.LaunchTable``): no program plays, no
    # chance to seed, no record; Ctrl+R plays the seats rotated.

    def programs(self) -> dict[str, str]:
        return {}

    def hello(self, seat: str) -> dict[str, Any]:
        return {}

    def play(self, seed: int, delay: float, record: str | None, ascii_only: bool,
             tally: WinTally | None) -> tuple[int, bool]:
        return play_austerity(self, delay, ascii_only, offer_again=True, tally=tally)

    def next_table(self) -> AusterityTable:
        return self.rotated()


def bundled_deck() -> list[Card]:
    data = (files("cardtable.games.austerity") / "decks" / BUNDLED_DECK).read_bytes()
    cards = parse_deck(data)
    assert cards is not None, "the bundled deck is valid"
    return cards


def parse_lineup(text: str) -> tuple[str, ...]:
    """``shenzi,banzai,ed`` as seats A, B, C; raises ValueError with a one-line message."""
    names = tuple(name.strip().lower() for name in text.split(",") if name.strip())
    for name in names:
        if name not in STRATEGIES:
            raise ValueError(unknown_bot_message(name, "austerity", list(STRATEGIES)))
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise ValueError(f"Austerity needs {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                         "e.g. shenzi,banzai,ed.")
    return names


def parse_count(text: str, what: str) -> int:
    text = text.strip()
    # The length test first: int() refuses text of thousands of digits with its own error.
    if not text.isdigit() or len(text) > len(str(INT_MAX)) or int(text) > INT_MAX:
        raise ValueError(f"{what} must be a whole number from 0 to {INT_MAX}.")
    return int(text)


def build_table(players: str, deck_path: str, tokens: str, points: str) -> AusterityTable:
    """The launcher's Austerity fields checked; raises ValueError with the message to show."""
    lineup = parse_lineup(players)
    path = deck_path.strip()
    if path:
        try:
            deck = load_deck(path)
        except DeckError as error:
            raise ValueError(f"{error.message}: '{path}'.") from None
    else:
        deck = bundled_deck()
    return AusterityTable(lineup, tuple(deck), path or BUNDLED_DECK,
                          parse_count(tokens, "Tokens"), parse_count(points, "Points"))


def card_text(card: Card) -> str:
    p, b, y, r = card.cost
    return f"{COLOURS[card.colour]} {card.value:>2} pts  costs {p},{b},{y},{r}"


class AusterityApp(TableApp):
    """One game of Austerity, watched: the players, the market, the piles and the hub's log."""

    TITLE = "Austerity"
    CSS = """
    #main { height: 1fr; }
    #table { width: 1fr; }
    #players-box { height: 1fr; border: round $foreground 40%; }
    #market { height: 10; border: round $foreground 40%; }
    #piles { height: 2; padding: 0 1; }
    #status { height: 3; padding: 0 1; }
    #keys { height: 1; color: $text-muted; padding: 0 1; }
    #log { width: 30; border: round $foreground 40%; }
    .wide #log { width: 56; }
    #too-small { display: none; }
    .small #main { display: none; }
    .small #too-small { display: block; }
    """

    def __init__(self, table: AusterityTable, delay: float = 1.0, ascii_only: bool = False,
                 offer_again: bool = False, tally: WinTally | None = None) -> None:
        self.theme_: Theme = make_theme(ascii_only)  # read NO_COLOR before Textual pops it
        super().__init__()
        self.table = table
        self.delay = delay
        self.offer_again = offer_again
        self.again = False
        self.ready = False
        self.messages: list[str] = []
        self.tally = WinTally() if tally is None else tally
        self.state = AusterityState(list(table.deck), table.tokens, table.points,
                                    len(table.lineup))
        self.game = self.state.game
        self.choosers = [STRATEGIES[name] for name in table.lineup]
        self.turns = 0
        self.stopped = False
        """True when the game reached the turn limit without ending (it never would)."""

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="table"):
                with VerticalScroll(id="players-box"):
                    yield Static(id="players")
                yield Static(id="market")
                yield Static(id="piles")
                yield Static(id="status")
                yield Static(self.theme_.sep.join(["Esc quit", "?/F1 help", "Ctrl+R again"]),
                             id="keys")
            yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=16)
        yield TooSmall(id="too-small")

    def on_mount(self) -> None:
        self.ready = True
        self.query_one("#log", RichLog).border_title = " Hub output "
        self.query_one("#players-box").border_title = " Players "
        self._fit(self.size.width, self.size.height)
        # The state turned the market up when it was made.
        for card in list(self.game.table.market):
            self.say(newcard_line(card).rstrip("\n"))
        self.refresh_table()
        self.schedule()

    # ------------------------------------------------------------------- views

    def refresh_table(self) -> None:
        if not self.ready:
            return
        self.query_one("#players", Static).update(self._players_text())
        market = self.query_one("#market", Static)
        market.border_title = f" Market ({len(self.game.table.market)}) "
        market.update(self._market_text())
        self.query_one("#piles", Static).update(self._piles_text())
        self.query_one("#status", Static).update(self._status_text())

    def _players_text(self) -> Text:
        table = self.game.table
        width = max(len(name) for name in self.table.lineup) + 2
        out = Text(f"  {'seat':<{width}}  pts   P  B  Y  R  W  discount",
                   style=self.theme_.style("dim"))
        winners = set(table.winners()) if self.game_over() and not self.stopped else set()
        for seat, name in enumerate(self.table.lineup):
            to_move = not self.game_over() and self.game.current == seat
            marker = ">" if to_move else ("*" if seat in winners else " ")
            tokens = " ".join(f"{count:>2}" for count in table.tokens[seat])
            discounts = " ".join(str(count) for count in table.discounts[seat])
            style = (self.theme_.style("turn") if to_move
                     else self.theme_.style("win") if seat in winners else "")
            out.append("\n")
            out.append(f"{marker} {letter(seat) + ' ' + name:<{width}}  {table.points[seat]:>3}  "
                       f"{tokens} {table.wilds[seat]:>2}  {discounts}", style=style)
        return out

    def _market_text(self) -> Text:
        market = self.game.table.market
        if not market:
            return Text("(empty)", style=self.theme_.style("dim"))
        return Text("\n".join(f"{index}  {card_text(card)}" for index, card in enumerate(market)))

    def _piles_text(self) -> Text:
        piles = self.game.table.piles
        left = len(self.game.deck) - self.game.next_card
        return Text(
            "Piles " + " ".join(f"{COLOURS[i]} {piles[i]}" for i in range(4))
            + f" W unlimited   Turn {self.turns}\n"
            f"Target {self.table.points} points   Deck {left} left ({self.table.deck_name})")

    def _status_text(self) -> Text:
        if not self.game_over():
            seat = self.game.current
            return Text(f"{letter(seat)} ({self.table.lineup[seat]}) to play",
                        style=self.theme_.style("dim"))
        again = " Ctrl+R: play again." if self.offer_again else ""
        text = Text(f"{self.result_text()}. {PRESS_ESC}{again}",
                    style=self.theme_.style("important"))
        line = self.final_tally().line()
        if line:
            text.append("\n" + line)
        return text

    def result_text(self) -> str:
        if self.stopped:
            return f"No end after {self.turns} turns"
        winners = self.game.table.winners()
        names = ", ".join(f"{letter(seat)} {self.table.lineup[seat]}" for seat in winners)
        return f"Winner(s) {winners_text(winners)}: {names}"

    def winners(self) -> list[str]:
        """The winners' program names (empty for a game stopped at the turn limit)."""
        if self.stopped or not self.game.finished:
            return []
        return [self.table.lineup[seat] for seat in self.game.table.winners()]

    def final_tally(self) -> WinTally:
        """The launcher's tally with this game counted (shown at the end)."""
        tally = self.tally.copy()
        if self.game_over() and not self.stopped:
            tally.add(self.table.lineup, self.winners())
        return tally

    # -------------------------------------------------------------------- play

    def schedule(self) -> None:
        if self.game_over():
            return
        if self.delay > 0:
            self.set_timer(self.delay, self.step)
        else:
            self.call_later(self.step)

    def step(self) -> None:
        """One turn: the strategy of the seat to move chooses, the hub's rules apply it."""
        if self.game_over() or not self.is_running:
            return
        seat = self.game.current
        try:
            action = self.choosers[seat](self.game.table, seat)
            try:
                drawn = self.state.apply(action)
            except IllegalAction as refused:
                raise ValueError(f"{self.table.lineup[seat]} chose a move the hub refuses: "
                                 f"{refused}") from None
        except Exception as error:  # a strategy's bug: end on the error screen
            self.fatal(error_text(error))
            return
        self.turns += 1
        self.say(action_line(seat, action).rstrip("\n"))
        if drawn is not None:
            self.say(newcard_line(drawn).rstrip("\n"))
        if self.game.finished:
            winners = self.game.table.winners()
            self.say(f"Winner(s) {winners_text(winners)}", self.theme_.style("important"))
            self.say(PRESS_ESC)
        elif self.turns >= DEFAULT_MAX_TURNS:
            self.stopped = True
            self.say(f"No end after {self.turns} turns: stopped.", self.theme_.style("error"))
        self.refresh_table()
        self.schedule()

    # ------------------------------------------------------------------ leaving

    def game_over(self) -> bool:
        return self.game.finished or self.stopped

    def _quit(self) -> None:
        self.exit(0)

    def closing_lines(self, interrupted: bool) -> tuple[list[str], list[str]]:
        """The hub's ``Winner(s) A,C`` line; "Interrupted." after Ctrl+C; else "Game
        abandoned."."""
        if self.game.finished:
            return [f"Winner(s) {winners_text(self.game.table.winners())}"], []
        return ([], ["Interrupted."]) if interrupted else (["Game abandoned."], [])

    def tally_entry(self) -> tuple[list[str], list[str]] | None:
        if not self.game.finished:
            return None
        return list(self.table.lineup), list(self.winners())

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen("Austerity", HELP_LINES))


HELP_LINES = [
    "Watching the player programs' strategies play one game of Austerity,",
    "with the hub's rules (see docs/austerity.md).",
    "",
    "On a turn a player takes one token from three different coloured",
    "piles (P B Y R), takes a wild (W), or buys a market card. Each owned",
    "card lowers later costs by one token of its colour. The game ends at",
    "the end of a round in which someone reached the target, or when a",
    "purchase empties the market. Most points win.",
    "",
    "Players: > to move, * winner; pts, tokens P B Y R W, discounts.",
    "Keys: Esc quits (asks first), Ctrl+R plays again with every program",
    "  one seat on, ? or F1 this help.",
]


def play_austerity(table: AusterityTable, delay: float, ascii_only: bool,
                   offer_again: bool = False,
                   tally: WinTally | None = None) -> tuple[int, bool]:
    """Watch one game; returns (status, play again?). ``tally`` is shown with this game."""
    app = AusterityApp(table, delay, ascii_only, offer_again, tally)
    status = app.run()
    return (status if isinstance(status, int) else 0), app.again
