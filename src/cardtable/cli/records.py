"""``cardtable replay FILE`` and ``cardtable records upgrade FILE...``: records of any game.

``replay`` reads the game from the record's header and asks its description: a game with a
replay of its own (``replay_app``: ``caravan --replay``, ``obsession --replay``) shows it
there, with that command's options and exit statuses; any other game is replayed here, every
line checked (``replay_record``, or the game's own check ``record_replay``), and shown move by
move: the public view after the deal and after each move, then the result (``--moves``: the
moves and the result, ``--quiet``: the result only). Exit status: 0 replayed (an unfinished
game's record too, which says so), 1 a file that cannot be read or is not a record, an unknown
game, a bad option; 4 a record that does not replay (a line that does not fit the game, a
record cut short: what is there is shown first).

``records upgrade`` rewrites records of the former dialects in the one record format, next to
each file (``NAME.upgraded.jsonl``, never over an existing file) or, with ``--in-place``, in
its place once the new file is complete and on disk, the original kept as ``NAME.orig``. A
record already in the one format is left as it is (a note says so). Exit status: 0 every file
upgraded or already current, 1 a file that cannot be read, is not a record, does not replay,
or whose upgrade cannot be written (each file gets its own line; the others are still done).
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Sequence
from typing import Any

from cardtable.engine.bounded_read import FileTooLarge
from cardtable.engine.error_line import OneLineArgumentParser, print_error
from cardtable.engine.errors import RecordError
from cardtable.engine.record import first_object, read_lines, record_game, start_complaint

REPLAY = "cardtable replay"
RECORDS = "cardtable records"
UPGRADE = "cardtable records upgrade"
EXIT_OK, EXIT_BAD, EXIT_MISMATCH = 0, 1, 4
UPGRADED_SUFFIX = ".upgraded.jsonl"
BACKUP_SUFFIX = ".orig"

REPLAY_USAGE = f"usage: {REPLAY} FILE [OPTIONS]"
REPLAY_HELP = f"""{REPLAY_USAGE}
Replay a game record of any game, checking every line. A game with a replay of its own is
shown by it, with its options:
{{own}}
Any other game is shown here: the public view after the deal and after each move, then the
result.

options (a game replayed here):
  --moves   the moves and the result, without the views
  --quiet   the result only

exit status: 0 replayed; 1 a file that cannot be read or is not a record, an unknown game
or a bad option; 4 a record that does not replay, or that stops before its result line.
A record of a former format is upgraded in memory first (see: {UPGRADE} --help)."""


def _replay_help() -> str:
    from cardtable.engine.game_registry import descriptions

    own = "\n".join(f"  {described.title}: {described.replay_command} FILE [OPTIONS]"
                     for described in descriptions() if described.replay_app is not None)
    return REPLAY_HELP.replace("{own}", own or "  (none installed)")

RECORDS_USAGE = f"usage: {UPGRADE} [--in-place] FILE [FILE ...]"


class _Refused(Exception):
    """A file the command will not use; the message is its one line."""


# ------------------------------------------------------------------------------ reading


def _lines(path: str) -> list[str]:
    try:
        return read_lines(path)
    except FileTooLarge as error:
        raise _Refused(f"Cannot open record file '{path}': {error.reason}.") from None
    except UnicodeDecodeError:
        raise _Refused(f"Cannot open record file '{path}': the file is not valid UTF-8.") \
            from None
    except OSError as error:
        raise _Refused(f"Cannot open record file '{path}': {error.strerror or error}.") \
            from None


def _not_a_record(verb: str, path: str, lines: Sequence[str]) -> str:
    """Why ``lines`` are not a record that names a game cardtable knows, in one line."""
    complaint = start_complaint(lines)
    if complaint is not None:
        return f"{verb} '{path}', line {complaint[0]}: {complaint[1]}."
    from cardtable.engine.game_registry import names

    first = first_object(lines)
    assert first is not None
    line = next(number for number, text in enumerate(lines, start=1) if text.strip())
    game = first.get("game")
    if first.get("type") == "header" and isinstance(game, str):
        from cardtable.engine.one_line import one_line, shortened

        return (f"{verb} '{path}', line {line}: the record's game '{shortened(one_line(game), 20)}'"
                f" is not one cardtable knows (known: {', '.join(names())}).")
    return f"{verb} '{path}', line {line}: the first line is not a record header."


# ------------------------------------------------------------------------------ replay


def replay_main(argv: list[str]) -> int:
    """``cardtable replay FILE [OPTIONS]``."""
    if not argv or argv[0] in ("-h", "--help"):
        if not argv:
            print_error(REPLAY, f"a record file is needed ({REPLAY_USAGE})")
            return EXIT_BAD
        print(_replay_help())
        return EXIT_OK
    path, rest = argv[0], argv[1:]
    if path.startswith("-") and path != "-":
        print_error(REPLAY, f"the record file comes first ({REPLAY_USAGE})")
        return EXIT_BAD
    try:
        lines = _lines(path)
        game = record_game(lines)
        if game is None:
            raise _Refused(_not_a_record("Replay", path, lines))
    except _Refused as refused:
        print_error(REPLAY, str(refused))
        return EXIT_BAD
    from cardtable.engine.game_registry import description
    from cardtable.engine.import_path import imported

    described = description(game)
    if described.replay_app is not None:
        status: int = imported(described.replay_app)([path, *rest])
        return status
    parser = OneLineArgumentParser(prog=REPLAY, add_help=False)
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--moves", action="store_true")
    shown.add_argument("--quiet", action="store_true")
    try:
        options = parser.parse_args(rest)
    except SystemExit as leaving:
        return leaving.code if isinstance(leaving.code, int) else EXIT_BAD
    from cardtable.engine.record_replay import ReplayedMatch, replay_record

    try:
        if described.record_replay is not None:
            replayed: ReplayedMatch = imported(described.record_replay)(path, lines)
        else:
            replayed = replay_record(described, path, lines)
    except RecordError as error:
        print_error(REPLAY, error.message)
        return EXIT_MISMATCH
    return _show(described, replayed, views=not (options.moves or options.quiet),
                 moves=not options.quiet)


def _show(described: Any, replayed: Any, views: bool, moves: bool) -> int:
    """Print a replayed record: who sat where, the moves (with the public view after the deal
    and after each move), how the game ended."""
    from cardtable.engine.record import not_finished_message
    from cardtable.ui.generic_view import readable_lines, result_lines

    def view(state: Any) -> None:
        try:
            shown = described.public_view(state)
        except NotImplementedError:  # a game without views: its moves say it all
            return
        for line in readable_lines(shown, "  "):
            print(line)

    if moves:
        players = ", ".join(f"{seat} {player}" for seat, player in replayed.players)
        seed = "" if replayed.seed is None else f" (seed {replayed.seed})"
        print(f"@@@ {described.title}: {players}{seed}")
        if views:
            view(replayed.start)
        for step, state in replayed.states():
            print(f"*** {step.seat}: {step.text}")
            if views:
                view(state)
    if replayed.cause is not None:
        print(not_finished_message(replayed.cause))
    elif replayed.result is not None:
        print("=== Game over ===")
        for line in result_lines(replayed.result):
            print(line)
    sys.stdout.flush()
    if replayed.missing is not None:
        print_error(REPLAY, replayed.missing.message)
        return EXIT_MISMATCH
    return EXIT_OK


# ------------------------------------------------------------------------------ upgrade


def main(argv: list[str]) -> int:
    """``cardtable records COMMAND ...`` (one command: ``upgrade``)."""
    if not argv:
        print_error(RECORDS, f"a command is needed: upgrade ({RECORDS_USAGE})")
        return EXIT_BAD
    if argv[0] in ("-h", "--help"):
        print(RECORDS_USAGE)
        return EXIT_OK
    if argv[0] != "upgrade":
        print_error(RECORDS, f"unknown command '{argv[0]}' (allowed: upgrade)")
        return EXIT_BAD
    from cardtable.engine.game_registry import descriptions

    former = ", ".join(described.title for described in descriptions()
                       if described.former_records is not None)
    parser = OneLineArgumentParser(
        prog=UPGRADE, description=f"Rewrite game records of the former formats (of: {former}) "
        "in the one record format. "
        f"Each FILE is checked by replaying it; its upgrade goes to NAME{UPGRADED_SUFFIX} "
        "(never over an existing file), or with --in-place replaces it once complete, the "
        f"original kept as NAME{BACKUP_SUFFIX}. A record already in the one format is left "
        "as it is.", epilog="exit status: 0 every file upgraded or already current; 1 a file "
        "that cannot be read, is not a record, does not replay or cannot be written (the "
        "other files are still upgraded).")
    parser.add_argument("files", nargs="+", metavar="FILE", help="a record file")
    parser.add_argument("--in-place", action="store_true",
                        help=f"replace each file, keeping the original as NAME{BACKUP_SUFFIX}")
    try:
        options = parser.parse_args(argv[1:])
    except SystemExit as leaving:
        return leaving.code if isinstance(leaving.code, int) else EXIT_BAD
    status = EXIT_OK
    for path in options.files:
        try:
            print(upgrade_file(path, options.in_place), flush=True)
        except _Refused as refused:
            sys.stdout.flush()
            print_error(UPGRADE, str(refused))
            status = EXIT_BAD
    return status


def upgraded_name(path: str) -> str:
    """Where the upgrade of ``path`` goes: ``game.jsonl`` → ``game.upgraded.jsonl``."""
    stem = path[:-len(".jsonl")] if path.endswith(".jsonl") else path
    return stem + UPGRADED_SUFFIX


def upgrade_file(path: str, in_place: bool) -> str:
    """Upgrade the record ``path``; the line to print, or :class:`_Refused`."""
    from cardtable.engine.game_registry import description
    from cardtable.engine.record_upgrade import UpgradeError, dialect_of, is_current

    lines = _lines(path)
    first = first_object(lines)
    if first is not None and is_current(first):
        return f"'{path}' is already in the one record format; left as it is."
    found = dialect_of(lines)
    if found is None:
        raise _Refused(_not_a_record("Upgrade", path, lines))
    game, reader = found
    try:
        upgraded = reader.upgrade(path, lines)
    except UpgradeError as error:
        raise _Refused(f"Upgrade '{path}', line {error.line}: {error.said}.") from None
    title = description(game).title
    what = f"{'an' if title[:1] in tuple('AEIOU') else 'a'} {title} record of the former format"
    data = upgraded.text().encode("utf-8")
    if in_place:
        backup = _replace(path, data)
        return f"Upgraded '{path}' ({what}) in place; the original is kept as '{backup}'."
    target = upgraded_name(path)
    _write_new(path, target, data)
    return f"Upgraded '{path}' ({what}) to '{target}'."


def _cannot_write(path: str, error: OSError) -> _Refused:
    return _Refused(f"Cannot write '{path}': {error.strerror or error}.")


def _write_all(descriptor: int, data: bytes) -> None:
    """Write ``data`` and wait until it is on the disk."""
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view):]
    os.fsync(descriptor)


def _write_new(path: str, target: str, data: bytes) -> None:
    """Create ``target`` with ``data``, never over an existing file (nothing is left of a
    file that could not be written whole)."""
    try:
        descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:
        raise _Refused(f"Upgrade '{path}': '{target}' already exists; move it away, or "
                       f"upgrade with --in-place.") from None
    except OSError as error:
        raise _cannot_write(target, error) from None
    try:
        _write_all(descriptor, data)
    except OSError as error:
        os.close(descriptor)
        os.unlink(target)
        raise _cannot_write(target, error) from None
    os.close(descriptor)


def _replace(path: str, data: bytes) -> str:
    """Put ``data`` in place of the file ``path`` (of a link: of the file it points to), the
    original kept as ``NAME.orig``: the new file is written and synced beside it first, the
    original linked (or copied) to its backup, and only then is the new file renamed over it.
    Returns the backup's name."""
    real = os.path.realpath(path)
    backup = (path if real == os.path.abspath(path) else real) + BACKUP_SUFFIX
    if os.path.lexists(backup):
        raise _Refused(f"Upgrade '{path}': the backup '{backup}' already exists; move it "
                       f"away first.")
    folder = os.path.dirname(real)
    try:
        descriptor, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(real)}.",
                                                 suffix=".upgrading", dir=folder)
    except OSError as error:
        raise _cannot_write(path, error) from None
    try:
        try:
            _write_all(descriptor, data)
        finally:
            os.close(descriptor)
        os.chmod(temporary, os.stat(real).st_mode & 0o7777)
        _keep(real, backup)
        os.replace(temporary, real)
    except OSError as error:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise _cannot_write(path, error) from None
    _sync_folder(folder)
    return backup


def _keep(real: str, backup: str) -> None:
    """The original's backup: a second name of the same file, or a copy where the file
    system has no links; never over an existing file."""
    try:
        os.link(real, backup)
        return
    except FileExistsError:
        raise
    except OSError:
        pass
    with open(real, "rb") as source:
        data = source.read()
    descriptor = os.open(backup, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        _write_all(descriptor, data)
    finally:
        os.close(descriptor)


def _sync_folder(folder: str) -> None:
    """Make the renames in ``folder`` durable (where the system allows it)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
