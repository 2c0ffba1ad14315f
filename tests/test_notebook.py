"""The tutorial notebook runs top to bottom on the engine under test, and is committed clean."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import nbclient
import nbformat
import pytest

from tests.conftest import ENGINE

NOTEBOOK = Path(__file__).parent.parent / "notebooks" / "tutorial.ipynb"
KERNEL = "graphmem-tests"


def kernel_manager(folder: Path):
    """A kernel on this very interpreter and engine, whatever kernels the machine has installed."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    spec = folder / "kernels" / KERNEL
    spec.mkdir(parents=True)
    scratch = folder / "tmp"  # the pages the notebook writes to a temporary folder go with the test's own
    scratch.mkdir()
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "graphmem tests", "language": "python",
        "env": {"GRAPHMEM_ENGINE": ENGINE, "TMPDIR": str(scratch)},
    }))
    specs = KernelSpecManager(kernel_dirs=[str(folder / "kernels")], ensure_native_kernel=False)
    return KernelManager(kernel_name=KERNEL, kernel_spec_manager=specs)


def text_of(cell) -> str:
    """Everything a code cell showed: printed text and displayed HTML."""
    parts = []
    for out in cell.get("outputs", []):
        parts.append(out.get("text", ""))
        data = out.get("data", {})
        parts.extend([data.get("text/plain", ""), data.get("text/html", "")])
    return "".join(parts)


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    folder = tmp_path_factory.mktemp("notebook")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(notebook, km=kernel_manager(folder), timeout=120,
                                     resources={"metadata": {"path": str(folder)}})
    client.execute()  # raises CellExecutionError, naming the cell, if any cell fails
    return notebook


def shown(notebook, source_start: str) -> str:
    (cell,) = [c for c in notebook.cells if c.cell_type == "code" and c.source.startswith(source_start)]
    return text_of(cell)


def test_every_cell_ran_without_error(executed):
    code = [c for c in executed.cells if c.cell_type == "code"]
    assert code and all(c.execution_count for c in code)
    errors = [out for c in code for out in c.outputs if out.output_type == "error"]
    assert errors == []
    streams = [out for c in code for out in c.outputs if out.output_type == "stream"]
    assert not [s.text for s in streams if s.name == "stderr"]


def test_the_late_move_is_told(executed):
    writes = shown(executed, "clock = Clock").splitlines()
    assert writes[0] == f"engine: {ENGINE}"  # the kernel ran on the engine under test
    assert [line.split()[0] for line in writes[1:]] == ["ADD", "UPDATE"]
    answers = shown(executed, "def lives_in")
    assert answers.splitlines() == [
        "as of 2026-10-20  valid at 2026-10-20:  ['Prague']",
        "as of now         valid at 2026-10-20:  ['Berlin']",
        "as of now         valid at 2026-10-10:  ['Prague']",
    ]
    history = shown(executed, "history = ").splitlines()
    assert ["Berlin" in history[0] and "current" in history[0],
            "Prague" in history[1] and "ended" in history[1],
            "Prague" in history[2] and "superseded" in history[2]] == [True, True, True]
    segment = shown(executed, 'clock.set("2026-11-25")')
    assert "as of 2026-11-10: ['Prague']" in segment and "as of now:        ['Munich']" in segment
    assert "segmented" in shown(executed, "for c in store.diff")
    assert "From October 1 to 14 I was in Munich" in shown(executed, "answer = store.why")


def test_the_chat_time_story_is_told(executed):
    approved = shown(executed, "decisions = chat.approve")
    assert approved.strip() == "approved: p1 ADD, p2 ADD, p3 UPDATE, p4 ADD, p5 END, p6 ADD"
    answers = shown(executed, "def objects")
    assert answers.splitlines() == [
        "lives in now            ['Shanghai']",
        "lived in on 2025-03-01  ['Beijing']",
        "likes now               []",
        "liked on 2025-09-20     ['apples']",
    ]
    assert "2025-09-12 → 2025-09-25" in shown(executed, 'show(chat.history("Lin", "likes"))')
    trips = shown(executed, "trips = ").splitlines()
    assert [line.split()[0] for line in trips] == ["Hangzhou", "Xi'an"]
    assert "2026-04-27 → 2026-05-04" in trips[0] and "2024-10-01 → 2024-11-01" in trips[1]


def test_pictures_are_inline_and_self_contained(executed):
    for start, title in (("snapshot = ", "Knowledge graph"), ("timeline = ", "Timeline of Ivan")):
        page = shown(executed, start)
        assert page.count("<iframe") == 1 and 'sandbox="allow-scripts"' in page
        assert title in page and "https://" not in page.split("srcdoc=")[0]


def test_committed_notebook_is_clean():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(notebook)
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert all(c.outputs == [] and c.execution_count is None and "execution" not in c.metadata
               for c in code), "clear the outputs before committing (see docs/pictures.md)"
    assert notebook.metadata.kernelspec.name == "python3"
