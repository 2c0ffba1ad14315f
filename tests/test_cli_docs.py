"""docs/cli.md's console examples, run: each command's output is the one printed there."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from graphmem.cli import main
from tests.conftest import ENGINE

DOC = Path(__file__).resolve().parent.parent / "docs" / "cli.md"


def examples() -> list[tuple[dict, list[str], str]]:
    """(environment, arguments, expected output) of each `$ ` line in the console blocks."""
    found = []
    for block in re.findall(r"```console\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S):
        for command in re.split(r"^\$ ", block, flags=re.M)[1:]:
            line, _, expected = command.partition("\n")
            words = shlex.split(line)
            env = dict(w.split("=", 1) for w in words if re.fullmatch(r"[A-Z_]+=\S*", w))
            args = [w for w in words if not re.fullmatch(r"[A-Z_]+=\S*", w)]
            assert args[0] == "graphmem", line
            found.append((env, args[1:], expected))
    return found


def test_the_console_examples_of_docs_cli_md_print_what_they_show(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the examples use the default store, ./graphmem-store
    runner = CliRunner()
    ran = 0
    for env, args, expected in examples():
        result = runner.invoke(main, ["--engine", ENGINE, *args], env=env, prog_name="graphmem")
        shown = result.stdout + result.stderr
        assert shown.replace(f"engine {ENGINE}", "engine kuzu") == expected, (args, shown)
        ran += 1
    assert ran >= 6
