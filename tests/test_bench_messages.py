"""The message-scale benchmark's data (benchmarks/chat.py): fast checks; the run itself only with -m slow."""

from __future__ import annotations

import json

import pytest

from benchmarks.chat import with_messages
from benchmarks.generate import generate, write_log
from tests.conftest import ENGINE


@pytest.mark.engine_free
def test_chat_log_adds_messages_each_with_its_own_write(tmp_path):
    write_log(generate(120, 3), tmp_path / "log.jsonl")
    made = with_messages(tmp_path / "log.jsonl", tmp_path / "chat.jsonl", 300, pairs=3)
    records = [json.loads(line) for line in (tmp_path / "chat.jsonl").read_text().splitlines()]
    chat = [r for r in records if r["type"] == "episode" and r["actor"]]
    writes = [r for r in records if r["type"] == "decision"]
    meta = {r["key"]: r["value"] for r in records if r["type"] == "meta"}
    assert made["messages"] == len(chat) == 300 and made["speakers"] == 6
    assert len({w["at"] for w in writes}) == len(writes)  # each write at its own time
    assert {w["episode"] for w in writes if w["op"] == "EPISODE"} >= {e["id"] for e in chat}
    assert int(meta["seq:ep"]) == len([r for r in records if r["type"] == "episode"])
    assert meta["last_write"] == max(w["at"] for w in writes)
    assert all(e["reference_time"] <= e["received_at"] for e in chat)


@pytest.mark.slow
def test_messages_speed_at_a_small_scale(tmp_path, request):
    """The whole benchmark at 2k versions and 3k messages on this engine (a minute or so)."""
    if "slow" not in (request.config.getoption("-m") or ""):
        pytest.skip("runs only with -m slow")
    from benchmarks.messages_speed import run

    result = run("2000", 3000, ENGINE, repeat=1, people=3, data_root=tmp_path / "data")
    assert result["messages_indexed"] >= 3000 and not result["second_process_rebuilt"]
    assert not result["purged_text_found"] and not result["purged_text_in_file"]
