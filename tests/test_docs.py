"""The docs stand alone: every CLI command has help and is in the README, every file the docs name
exists, and the worked examples print what the docs show."""

import itertools
import json
import re
import shlex
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from graphmem.cli import main
from tests.conftest import ENGINE

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def commands(group: click.Group, prefix: tuple[str, ...] = ()):
    for name, command in sorted(group.commands.items()):
        path = (*prefix, name)
        yield path, command
        if isinstance(command, click.Group):
            yield from commands(command, path)


ALL = list(commands(main))


@pytest.mark.parametrize("path, command", ALL, ids=[" ".join(p) for p, _ in ALL])
def test_command_has_help_and_is_documented(path, command):
    result = CliRunner().invoke(main, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert command.help and command.help.strip(), f"{' '.join(path)} has no help text"
    for option in command.params:
        if isinstance(option, click.Option):
            assert option.help, f"{' '.join(path)} {option.opts[0]} has no help text"
    assert f"graphmem {' '.join(path)}" in README, f"README does not document `graphmem {' '.join(path)}`"


# --- every file a user reads about exists, and nothing names a file the repository lacks ----------

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
#: The repository's own top-level folders: a path starting with one of them names a repository file.
TOP = sorted(p.name for p in ROOT.iterdir() if p.is_dir() and p.name not in {".git", ".hypothesis"}
             and not p.name.endswith(".egg-info") and p.name not in {"build", "dist", "__pycache__"})
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_TOP = "|".join(map(re.escape, TOP))
_REPO_PATH = re.compile(rf"(?<![\w./~-])((?:{_TOP})/[\w./*-]*)(?:::(\w+))?")
_PLACEHOLDER = re.compile(r"(?<=/)[A-Z][A-Z_]+(?=[./]|$)")
_MARKDOWN_FILE = re.compile(r"(?<![\w/.-])([A-Za-z][\w-]*\.md)\b")


def _notebook_text(path: Path) -> str:
    cells = json.loads(path.read_text())["cells"]
    return "\n".join("".join(cell["source"]) for cell in cells)


def _cli_help() -> str:
    runner = CliRunner()
    texts = [runner.invoke(main, ["--help"]).output]
    texts += [runner.invoke(main, [*path, "--help"]).output for path, _ in ALL]
    return "\n".join(texts)


def _readable() -> list[tuple[str, Path, str]]:
    """Every text a user reads: (name, the folder its relative links start from, text)."""
    found = [("README.md", ROOT, README)]
    found += [(f"docs/{p.name}", p.parent, p.read_text()) for p in DOCS]
    found += [(f"notebooks/{p.name}", p.parent, _notebook_text(p)) for p in NOTEBOOKS]
    found.append(("graphmem --help (every command)", ROOT, _cli_help()))
    return found


READABLE = _readable()


def _exists(base: Path, name: str) -> bool:
    name = name.rstrip("/.,;:")
    if any(ch in name for ch in "*?["):
        return any(base.glob(name))
    return (base / name).exists()


def _named_paths(base: Path, text: str) -> list[tuple[str, bool]]:
    """(what the text names, whether it exists) for every relative link and repository path in it."""
    named = []
    for target in _LINK.findall(text):
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            continue  # a web address or a place on the same page
        named.append((target, _exists(base, target.split("#")[0])))
    for path, test in _REPO_PATH.findall(text):
        ok = _exists(ROOT, _PLACEHOLDER.sub("*", path))  # queries/NAME.cypher: some query
        if ok and test:  # file.py::test_name names a test in that file
            ok = re.search(rf"def {re.escape(test)}\b", (ROOT / path).read_text()) is not None
        named.append((path + (f"::{test}" if test else ""), ok))
    for name in _MARKDOWN_FILE.findall(text):  # a guide or a page named bare: here, in docs/ or at the root
        named.append((name, any((folder / name).exists() for folder in (base, ROOT / "docs", ROOT))))
    return named


@pytest.mark.parametrize("name, base, text", READABLE, ids=[name for name, _, _ in READABLE])
def test_every_file_named_exists_in_the_repository(name, base, text):
    missing = sorted({path for path, ok in _named_paths(base, text) if not ok})
    assert not missing, f"{name} names files the repository lacks: {missing}"


@pytest.mark.parametrize("name, base, text", READABLE, ids=[name for name, _, _ in READABLE])
def test_nothing_names_the_design_notes(name, base, text):
    assert "DESIGN" not in text, f"{name} names DESIGN.md, which users do not have; point to docs/semantics.md"
    assert "design folder" not in text and "design notes" not in text


def test_the_path_check_finds_a_missing_file():
    text = "See [the notes](notes/missing.md), `tests/test_nothing_here.py`, DESIGN.md, " \
           "`tests/test_docs.py::test_no_such_test`, `queries/NAME.cypher`, `queries/NAME.sql` " \
           "and [this page](semantics.md)."
    found = dict(_named_paths(ROOT / "docs", text))
    assert found == {"notes/missing.md": False, "tests/test_nothing_here.py": False, "DESIGN.md": False,
                     "tests/test_docs.py::test_no_such_test": False, "queries/NAME.cypher": True,
                     "queries/NAME.sql": False, "semantics.md": True}


def test_the_semantics_are_where_the_readme_says():
    assert "docs/semantics.md" in README
    text = (ROOT / "docs" / "semantics.md").read_text()
    for heading in ("## Words", "## The invariants", "## Writes", "## Questions", "## Statuses",
                    "## Worked examples"):
        assert heading in text


# --- the worked examples of docs/semantics.md and the README print what they show ------------------


def _sections(text: str, level: str) -> dict[str, str]:
    parts = re.split(rf"^{level} (.+)$", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def _blocks(text: str) -> list[tuple[str, str]]:
    return re.findall(r"^```(\w*)\n(.*?)^```", text, flags=re.M | re.S)


def _sessions() -> list[tuple[str, list[tuple[str, str]]]]:
    semantics = (ROOT / "docs" / "semantics.md").read_text()
    examples = _sections(_sections(semantics, "##")["Worked examples"], "###")
    found = [(f"semantics: {title}", _blocks(body)) for title, body in examples.items()]
    found.append(("README: the idea in one example", _blocks(_sections(README, "##")["The idea in one example"])))
    return found


SESSIONS = _sessions()


@pytest.mark.parametrize("blocks", [b for _, b in SESSIONS], ids=[name for name, _ in SESSIONS])
def test_worked_examples_print_what_the_docs_show(blocks, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # files the example names (chat.jsonl) are written here
    runner, store = CliRunner(), str(tmp_path / "store")
    assert runner.invoke(main, ["--store", store, "--engine", ENGINE, "init"]).exit_code == 0
    ran = 0
    for language, body in blocks:
        if language == "json":  # the file the next command reads
            (tmp_path / "chat.jsonl").write_text(body)
            continue
        if language != "console":
            continue
        lines = body.splitlines()
        for n, line in enumerate(lines):
            if not line.startswith("$ graphmem "):
                continue
            args = shlex.split(line[len("$ graphmem "):], comments=True)
            if args == ["init"]:
                continue
            shown = list(itertools.takewhile(lambda out: not out.startswith("$ "), lines[n + 1:]))
            result = runner.invoke(main, ["--store", store, "--engine", ENGINE, *args])
            assert result.exit_code == 0, f"{line}\n{result.output}"
            if shown:
                assert result.stdout.splitlines() == shown, line
            ran += 1
    assert ran, "no command was run"


# --- the browser tests say how to get a browser ----------------------------------------------------


def test_without_chromium_browser_tests_skip_with_the_readme_s_hint(monkeypatch, tmp_path_factory):
    from tests.test_visualize_cdp import start_browser

    monkeypatch.setenv("PATH", str(tmp_path_factory.mktemp("no-browser-here")))
    monkeypatch.delenv("GRAPHMEM_CHROMIUM", raising=False)
    monkeypatch.delenv("GRAPHMEM_REQUIRE_BROWSER", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install -y chromium") as skipped:
        start_browser(tmp_path_factory)
    assert "GRAPHMEM_CHROMIUM" in str(skipped.value)
    assert "apt-get install chromium" in README and "GRAPHMEM_CHROMIUM" in README
    monkeypatch.setenv("GRAPHMEM_REQUIRE_BROWSER", "1")  # CI: a missing browser fails, never skips
    with pytest.raises(pytest.fail.Exception, match="apt-get install"):
        start_browser(tmp_path_factory)
