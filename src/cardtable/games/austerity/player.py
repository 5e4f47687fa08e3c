"""The player programs ``shenzi``, ``banzai`` and ``ed``: one main loop, three strategies.

A player keeps its own view of the game, an ``AusterityState`` (``state.py``) made by
``AusterityState.watching`` and updated blindly from the hub's messages (it checks their
structure, never their legality), prints a status block on stderr after each update and answers
``dowhat`` on stdout with one action line.

Start-up time matters (every game starts several players), so this module imports only
``sys``, ``posix`` (the C core of ``os``, built into the interpreter: ``os`` itself costs most
of a millisecond when the interpreter starts without ``site``, as the hub starts its players),
the C core of ``signal`` and the small shared modules.
"""

# The C core of the signal module is loaded by the interpreter at start-up anyway; the
# ``signal`` module itself would pull in ``enum`` and cost several milliseconds per player.
import _signal  # type: ignore[import-not-found]
import posix
import sys

from cardtable.games.austerity.codec import (
    DOWHAT,
    EOG,
    LINE_LIMIT,
    NEWCARD,
    PURCHASED,
    TOKENS,
    TOOK,
    format_action,
    parse_argument,
    parse_message,
    winners_text,
)
from cardtable.games.austerity.rules import COLOURS, PURCHASE, TAKE, WILD_ACTION, Action, Table
from cardtable.games.austerity.state import AusterityState
from cardtable.games.austerity.strategies import banzai, ed, shenzi

# Not ``typing.TYPE_CHECKING``: importing typing costs every player start (mypy reads any
# constant of this name as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    Readline = Callable[[int], bytes]

COMMUNICATION_ERROR = 6


def _err(text: str) -> None:
    """Write to stderr, ignoring a closed or broken stderr (the hub sends it to /dev/null)."""
    data = text.encode()
    while data:
        try:
            written = posix.write(2, data)
        except OSError:
            return
        data = data[written:]


def _discarded(fd: int) -> bool:
    """Whether ``fd`` is ``/dev/null`` (where the hub sends its players' stderr)."""
    try:
        mine = posix.fstat(fd)
        null = posix.stat("/dev/null")
    except OSError:
        return False
    return (mine.st_dev, mine.st_ino) == (null.st_dev, null.st_ino)


def status_block(table: Table) -> str:
    """Market cards, oldest first, then every player's points, discounts and tokens."""
    lines = []
    for index, card in enumerate(table.market):
        p, b, y, r = card.cost
        lines.append(f"Card {index}:{COLOURS[card.colour]}/{card.value}/{p},{b},{y},{r}\n")
    for player in range(table.count):
        dp, db, dy, dr = table.discounts[player]
        tp, tb, ty, tr = table.tokens[player]
        lines.append(
            f"Player {chr(65 + player)}:{table.points[player]}:Discounts={dp},{db},{dy},{dr}"
            f":Tokens={tp},{tb},{ty},{tr},{table.wilds[player]}\n"
        )
    return "".join(lines)


def play(name: str, count: int, me: int, readline: "Readline | None" = None,
         strategy: "Callable[[Table, int], Action] | None" = None) -> int:
    """Run the message loop on stdin/stdout until ``eog`` (0) or a bad message (6).

    ``readline(limit)`` reads stdin (``sys.stdin.buffer.readline`` when not given);
    ``strategy`` (a search, say) answers instead of the program ``name``'s own."""
    choose = strategy or {"shenzi": shenzi, "banzai": banzai, "ed": ed}[name]
    view = AusterityState.watching(count)
    table = view.table
    if readline is None:
        stdin = sys.stdin
        if stdin is None:
            # Started with descriptor 0 closed: nothing can ever be read.
            _err("Communication Error\n")
            return COMMUNICATION_ERROR
        readline = stdin.buffer.readline
    # The status blocks and notes on stderr cost more than the rest of a turn; when stderr is
    # /dev/null nobody can read them, so they are not even formatted.
    quiet = _discarded(2)
    while True:
        try:
            # The limit keeps a hostile hub from growing one line without bound; any line
            # that long is invalid anyway.
            line = readline(LINE_LIMIT + 2)
        except (OSError, ValueError):
            line = b""
        # EOF, a final line without "\n" and an over-long line all end here.
        message = parse_message(line[:-1], count) if line.endswith(b"\n") else None
        if message is None:
            _err("Communication Error\n")
            return COMMUNICATION_ERROR
        kind, player, number, values, card = message
        if kind == DOWHAT:
            if not quiet:
                _err("Received dowhat\n")
            try:
                posix.write(1, format_action(choose(table, me)))
            except OSError:
                # A closed stdout: the hub will see EOF; a broken pipe kills us by SIGPIPE.
                continue
            continue
        if kind == EOG:
            _err(f"Game over. Winners are {winners_text(table.winners())}\n")
            return 0
        if kind == TOKENS:
            view.fill_piles(number)
            known = True
        elif kind == NEWCARD:
            known = card is not None and view.turn_up(card)
        elif kind == PURCHASED:
            known = view.record(player, (PURCHASE, number, values))
        elif kind == TOOK:
            known = view.record(player, (TAKE, 0, values))
        else:
            known = view.record(player, WILD_ACTION)
        if not known:
            # A card beyond the market's eight, or the purchase of a card it does not have.
            _err("Communication Error\n")
            return COMMUNICATION_ERROR
        if not quiet:
            _err(status_block(table))


def main(name: str, args: list[str], readline: "Readline | None" = None,
         strategy: "Callable[[Table, int], Action] | None" = None) -> int:
    """``NAME pcount myid``: check the arguments in the documented order, then play."""
    # Die by SIGINT/SIGPIPE like a C program instead of raising KeyboardInterrupt/BrokenPipe.
    _signal.signal(_signal.SIGINT, _signal.SIG_DFL)
    _signal.signal(_signal.SIGPIPE, _signal.SIG_DFL)
    if len(args) != 2:
        _err(f"Usage: {name} pcount myid\n")
        return 1
    count = parse_argument(args[0])
    if not 2 <= count <= 26:
        _err("Invalid player count\n")
        return 2
    me = parse_argument(args[1])
    if not 0 <= me < count:
        _err("Invalid player ID\n")
        return 3
    return play(name, count, me, readline, strategy)
