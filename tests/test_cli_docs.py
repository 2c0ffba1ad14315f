"""The console examples of docs/cli.md and docs/ingest.md, run: each command prints what is shown."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from graphmem.cli import main
from tests.conftest import ENGINE

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "cli.md"
INGEST = ROOT / "docs" / "ingest.md"
#: A decision's transaction time, where a command writes at the wall clock's now.
_NOW = re.compile(r"^(\w+ d\d+ at )\d{4}-\d\d-\d\dT[\d:.]+Z;", re.M)


def examples(doc: Path = DOC) -> list[tuple[dict, list[str], str]]:
    """(environment, arguments, expected output) of each `$ ` line in the console blocks."""
    found = []
    for block in re.findall(r"```console\n(.*?)```", doc.read_text(encoding="utf-8"), re.S):
        for command in re.split(r"^\$ ", block, flags=re.M)[1:]:
            line, _, expected = command.partition("\n")
            words = shlex.split(line)
            env = dict(w.split("=", 1) for w in words if re.fullmatch(r"[A-Z_]+=\S*", w))
            args = [w for w in words if not re.fullmatch(r"[A-Z_]+=\S*", w)]
            assert args[0] in ("graphmem", "cat"), line
            found.append((env, args, expected))
    return found


def run_examples(doc: Path, directory: Path, monkeypatch) -> int:
    """Run ``doc``'s console examples in ``directory`` (`cat FILE` writes FILE); how many ran."""
    monkeypatch.chdir(directory)  # the examples use the default store, ./graphmem-store
    monkeypatch.delenv("COLUMNS", raising=False)  # tables 160 columns wide unless the example says
    runner = CliRunner()
    ran = 0
    for env, args, expected in examples(doc):
        if args[0] == "cat":
            (directory / args[1]).write_text(expected, encoding="utf-8")
            continue
        result = runner.invoke(main, ["--engine", ENGINE, *args[1:]], env=env, prog_name="graphmem")
        shown = (result.stdout + result.stderr).replace(f"engine {ENGINE}", "engine kuzu")
        assert _NOW.sub(r"\1T;", shown) == _NOW.sub(r"\1T;", expected), (args, shown)
        ran += 1
    return ran


def test_the_console_examples_of_docs_cli_md_print_what_they_show(tmp_path, monkeypatch):
    assert run_examples(DOC, tmp_path, monkeypatch) >= 6


def test_the_console_examples_of_docs_ingest_md_print_what_they_show(tmp_path, monkeypatch):
    """The chat of the worked example (the file the page names), a line that is no chat time,
    and a message older than the replayed store's latest write."""
    (tmp_path / "chat.jsonl").write_bytes((ROOT / "tests" / "data" / "ingest" / "design_chat.jsonl").read_bytes())
    (tmp_path / "bad.jsonl").write_text('{"role": "user", "content": "Hi.", "chat_time": "2025-01-10"}\n'
                                        '{"role": "user", "content": "Hi.", "chat_time": "next Tuesday"}\n')
    (tmp_path / "older.jsonl").write_text('{"role": "user", "content": "Hi.", "chat_time": "2025-01-10"}\n')
    (tmp_path / "export.jsonl").write_text('{"speaker": "Lin", "text": "Hi.", "timestamp": "2025-01-10 08:00"}\n')
    (tmp_path / "WhatsApp Chat with Nacho.txt").write_bytes((ROOT / "tests" / "data" / "ingest" / "whatsapp_chat.txt")
                                                          .read_bytes())
    (tmp_path / "message_1.json").write_bytes((ROOT / "tests" / "data" / "ingest" / "messenger_chat.json").read_bytes())
    (tmp_path / "[LINE] Chat with Kiko Abellana.txt").write_bytes(
        (ROOT / "tests" / "data" / "ingest" / "line_chat.txt").read_bytes())
    (tmp_path / "sms-20261206213011.xml").write_bytes(
        (ROOT / "tests" / "data" / "ingest" / "sms-20261206213011.xml").read_bytes())
    inbox = tmp_path / "export" / "your_instagram_activity" / "messages" / "inbox" / "duarte_123456789"
    inbox.mkdir(parents=True)
    (inbox / "message_1.json").write_bytes((ROOT / "tests" / "data" / "ingest" / "messenger_chat.json").read_bytes())
    assert run_examples(INGEST, tmp_path, monkeypatch) >= 20
