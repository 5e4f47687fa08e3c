"""Every Python and shell example of README.md and docs/ runs as written.

One collector for every page: each fenced block tagged ``python`` (or ``py``, ``pycon``) or
``sh`` (or ``shell``, ``bash``, ``console``) is one test item named ``PAGE:LINE``.

- Python blocks of a page share one namespace and run in page order (an item run alone first
  runs the page's earlier blocks). A block with ``>>>`` prompts is a doctest (``ELLIPSIS``);
  any other block is executed.
- Shell blocks run with ``bash -e`` (each command must succeed) in a directory of their own per
  page, with ``.venv/bin`` first on ``PATH``, standard input empty, at most ``TIMEOUT`` seconds.
  That directory links ``.venv``, ``examples``, ``src`` and ``tests`` from the repository, so
  the pages' relative paths work and the files they write land in the temporary directory. A
  ``console`` block runs its ``$ `` lines.

An HTML comment on the lines just before a block changes how it runs; the comment does not
show on the rendered page:

- ``<!-- snippet: skip (REASON) -->`` lists the block as skipped with REASON (``pytest -rs``
  shows it): blocks that start a server, need a terminal or a person at the keyboard, change
  the environment, or take too long.
- ``<!-- snippet: status N (REASON) -->`` expects the shell block's last command to exit with
  status N (the block then runs without ``-e``).

``SUBSTITUTIONS`` below shrinks examples that are too long to run in the suite as printed (big
tournaments, long training); each substitution must match its page, so none goes stale.

A ``toml`` block is a Caravan rules file and must load as one. An untagged block that begins
like a command (``$ ``, ``.venv/bin/``, a program of the project) must be tagged: ``sh`` to
run it, ``text`` for a synopsis or a transcript.
"""

from __future__ import annotations

import doctest
import io
import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 120.0
"""Seconds a shell block may run."""

PYTHON = ("python", "py", "pycon")
SHELL = ("sh", "shell", "bash", "console")
LINKED = (".venv", "examples", "src", "tests")
"""What a shell block's directory links from the repository."""

PROGRAMS = ("caravan", "obsession", "austerity", "cardtable", "shenzi", "banzai", "ed", "make",
            "printf", "pip", "taskset")

SUBSTITUTIONS: dict[str, tuple[tuple[str, str], ...]] = {
    # Tournaments a tenth of the size printed: the commands and their options are what is tested.
    "docs/tournaments.md": (("--seat friendly --games 400\n", "--seat friendly --games 40\n"),
                            ("--games 400 --jobs 2", "--games 40 --jobs 2"),
                            ("--games 4000 --sprt", "--games 400 --sprt")),
    "docs/bots.md": (("--seat normal --games 200", "--seat normal --games 20"),),
}
"""Per page: (text as printed, text as run), applied to every block of the page."""

FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>[\w+-]*)[ \t]*$")
MARKER = re.compile(r"^\s*<!--\s*snippet:\s*(?P<kind>skip|status)\b\s*(?P<arg>.*?)\s*-->\s*$")


@dataclass(frozen=True)
class Snippet:
    page: str
    """Path relative to the repository, ``docs/caravan.md``."""
    line: int
    """Line of the opening fence, from 1."""
    lang: str
    code: str
    skip: str | None = None
    status: int = 0

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def kind(self) -> str:
        if self.lang in PYTHON:
            return "python"
        if self.lang in SHELL:
            return "shell"
        return "other"


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def blocks(path: Path, root: Path = ROOT) -> list[Snippet]:
    """Every fenced block of a page, its body dedented to the fence, with its markers."""
    page = path.relative_to(root).as_posix()
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Snippet] = []
    index = 0
    while index < len(lines):
        match = FENCE.match(lines[index])
        if match is None:
            index += 1
            continue
        start, indent = index, len(match["indent"])
        body: list[str] = []
        index += 1
        while index < len(lines) and not re.match(r"^[ \t]*```[ \t]*$", lines[index]):
            text = lines[index]
            body.append(text[indent:] if text[:indent].strip() == "" else text.lstrip())
            index += 1
        index += 1
        skip, status = None, 0
        before = start - 1
        while before >= 0 and (marker := MARKER.match(lines[before])):
            if marker["kind"] == "skip":
                skip = marker["arg"].strip("()") or "marked skip"
            else:
                status = int(marker["arg"].split()[0])
            before -= 1
        found.append(Snippet(page, start + 1, match["lang"].lower(), "\n".join(body) + "\n",
                             skip, status))
    return found


def substituted(snippet: Snippet) -> str:
    code = snippet.code
    for printed, run in SUBSTITUTIONS.get(snippet.page, ()):
        code = code.replace(printed, run)
    return code


SNIPPETS = [snippet for path in pages() for snippet in blocks(path)
            if snippet.kind in ("python", "shell")]


def _param(snippet: Snippet) -> Any:
    marks = [pytest.mark.skip(reason=f"{snippet.id}: {snippet.skip}")] if snippet.skip else []
    return pytest.param(snippet, id=snippet.id, marks=marks)


# ------------------------------------------------------------------------------ pages


class Page:
    """One page's Python namespace and working directory, shared by its blocks in order."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.namespace: dict[str, Any] = {"__name__": "__doc_snippet__"}
        self.done: set[int] = set()
        self.failed: str | None = None
        for name in LINKED:
            if (ROOT / name).exists():
                (directory / name).symlink_to(ROOT / name)


_PAGES: dict[str, Page] = {}


@pytest.fixture
def page_for(tmp_path_factory: pytest.TempPathFactory) -> Any:
    def get(page: str) -> Page:
        if page not in _PAGES:
            _PAGES[page] = Page(tmp_path_factory.mktemp(re.sub(r"\W", "_", page)))
        return _PAGES[page]
    return get


def run_python(snippet: Snippet, page: Page) -> None:
    """Runs the block in the page's namespace; raises AssertionError on a failure."""
    code = substituted(snippet)
    if re.search(r"^\s*>>> ", code, re.M):
        test = doctest.DocTestParser().get_doctest(code, page.namespace, snippet.id,
                                                   snippet.page, snippet.line)
        out = io.StringIO()
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        outcome = runner.run(test, out=out.write, clear_globs=False)
        page.namespace.update(test.globs)  # the doctest ran in a copy of the namespace
        assert outcome.attempted > 0
        assert outcome.failed == 0, f"{snippet.id}: doctest failed\n{out.getvalue()}"
    else:
        exec(compile(code, snippet.id, "exec"), page.namespace)


def shell_script(snippet: Snippet) -> str:
    code = substituted(snippet)
    if snippet.lang == "console":
        code = "\n".join(line[2:] for line in code.splitlines() if line.startswith("$ "))
    return code


def run_shell(snippet: Snippet, page: Page) -> None:
    bin_dir = ROOT / ".venv" / "bin"
    if not bin_dir.is_dir():
        bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
           "XDG_DATA_HOME": str(page.directory / ".data"), "HOME": str(page.directory),
           "PYTHONDONTWRITEBYTECODE": "1"}
    options = ["-e"] if snippet.status == 0 else []
    process = subprocess.Popen(["bash", *options, "-c", shell_script(snippet)],
                               cwd=page.directory, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise AssertionError(f"{snippet.id}: still running after {TIMEOUT:.0f} s") from None
    assert process.returncode == snippet.status, (
        f"{snippet.id}: exit status {process.returncode}, expected {snippet.status}\n"
        f"--- stdout (end)\n{stdout.decode(errors='replace')[-3000:]}\n"
        f"--- stderr (end)\n{stderr.decode(errors='replace')[-3000:]}")


def run(snippet: Snippet, page: Page) -> None:
    if snippet.kind == "python":
        run_python(snippet, page)
    else:
        run_shell(snippet, page)


@pytest.mark.parametrize("snippet", [_param(snippet) for snippet in SNIPPETS])
def test_snippet(snippet: Snippet, page_for: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    page = page_for(snippet.page)
    monkeypatch.chdir(page.directory)
    # The blocks before this one, when it runs alone: a page reads as one session.
    for earlier in SNIPPETS:
        if earlier.page != snippet.page or earlier.line >= snippet.line:
            continue
        if earlier.skip or earlier.kind != snippet.kind or earlier.line in page.done:
            continue
        if page.failed is not None:
            break
        try:
            run(earlier, page)
        except BaseException:
            page.failed = earlier.id
            raise
        finally:
            page.done.add(earlier.line)
    if page.failed is not None:
        pytest.fail(f"{snippet.id}: an earlier block of the page failed ({page.failed})")
    try:
        run(snippet, page)
    except BaseException:
        page.failed = snippet.id
        raise
    finally:
        page.done.add(snippet.line)


# ----------------------------------------------------------------------- the collector


def test_every_page_has_examples_and_the_collector_finds_them() -> None:
    ids = {snippet.id for snippet in SNIPPETS}
    assert any(i.startswith("README.md:") for i in ids)
    for page in ("docs/caravan.md", "docs/engine.md", "docs/rl.md", "docs/austerity.md"):
        assert any(i.startswith(page + ":") for i in ids), page


def test_commands_are_tagged() -> None:
    """A block that reads like a command is tagged, so it runs or says why it does not."""
    untagged = []
    command = re.compile(r"^(\$ |\.venv/bin/|(" + "|".join(PROGRAMS) + r")( |$))")
    for path in pages():
        for snippet in blocks(path):
            first = snippet.code.lstrip("\n").split("\n", 1)[0]
            if snippet.lang == "" and command.match(first):
                untagged.append(snippet.id)
    assert untagged == [], "tag these blocks sh (to run) or text (a synopsis or transcript)"


def test_substitutions_match_their_pages() -> None:
    for page, pairs in SUBSTITUTIONS.items():
        text = (ROOT / page).read_text(encoding="utf-8")
        for printed, _run in pairs:
            assert printed in text, (page, printed)


def test_the_collector_reads_markers_and_indented_blocks(tmp_path: Path) -> None:
    page = tmp_path / "example.md"
    text = ("Intro\n\n<!-- snippet: skip (starts a server) -->\n```sh\nmake serve\n```\n\n"
            "- item:\n\n  <!-- snippet: status 3 -->\n  ```sh\n  printf 'x' | caravan\n  ```\n"
            "```python\n>>> 1 + 1\n2\n```\n")
    page.write_text(text, encoding="utf-8")
    found = blocks(page, tmp_path)
    assert [(s.line, s.lang, s.skip, s.status) for s in found] == [
        (4, "sh", "starts a server", 0), (11, "sh", None, 3), (14, "python", None, 0)]
    assert found[1].code == "printf 'x' | caravan\n"


def test_the_bot_program_of_bots_md_plays_a_game(tmp_path: Path) -> None:
    """The page's smallest bot is a program: it takes a Caravan seat and plays a whole game."""
    (program,) = [snippet for snippet in blocks(ROOT / "docs" / "bots.md")
                  if snippet.kind == "python" and "sys.stdin" in snippet.code]
    (tmp_path / "bot.py").write_text(program.code, encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, "-m", "cardtable.cli.caravan", "--bvb", "--plain", "--delay", "0",
         "--seed", "5", "--bot-abc", f"exec:{sys.executable} bot.py", "--bot-def", "normal"],
        cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True, text=True,
        timeout=TIMEOUT)
    assert completed.returncode == 0, completed.stderr
    assert "WINNER" in completed.stdout or "DRAW" in completed.stdout, completed.stdout[-500:]


def test_the_rules_files_of_the_pages_load(tmp_path: Path) -> None:
    """A ``toml`` block is a Caravan rules file: it loads, and says what its comments say."""
    from dataclasses import replace

    from cardtable.games.caravan.rules import PRESETS
    from cardtable.games.caravan.rules_assembly import assemble_rules

    files = [snippet for path in pages() for snippet in blocks(path) if snippet.lang == "toml"]
    assert files
    for snippet in files:
        (tmp_path / "rules.toml").write_text(snippet.code, encoding="utf-8")
        rules = assemble_rules(rules_file=str(tmp_path / "rules.toml"))
        if snippet.page == "docs/caravan.md":
            shared = replace(PRESETS["foxon"], max_faces=4, opening_hand_size=None)
            assert rules.abc == replace(shared, hand_size=6)
            assert rules.def_ == replace(shared, king_mode="double")
