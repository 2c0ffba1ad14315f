"""`graphmem demo`: build a store from the bundled scenario and show what it answers.

Internal: the ``graphmem demo`` command.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

from .._store import Store
from ..core.times import UTC
from ..errors import GraphmemError
from ..models import Version
from ..scenario import ScenarioClock, load, play
from . import MARKER_FILE, output

__all__ = ["run_demo"]

DEMO_MARK = "demo"
PAGES = "pages"


def prepare(directory: Path) -> None:
    """Clear a previous demo store; refuse to touch anything else."""
    if not directory.exists():
        return
    marker = directory / MARKER_FILE
    is_demo = marker.exists() and json.loads(marker.read_text()).get(DEMO_MARK)
    if not is_demo and any(directory.iterdir()):
        raise GraphmemError(f"{directory} exists and is not a graphmem demo store; choose another --dir")
    shutil.rmtree(directory)


def _values(versions: Iterable[Version]) -> str:
    return ", ".join(v.object for v in versions) or "nothing"


def run_demo(directory: Path, engine: str | None = None) -> None:
    """Build the demo store in ``directory`` and print as-of answers, a history and a diff."""
    prepare(directory)
    scenario = load("design")
    clock = ScenarioClock(datetime(2025, 1, 1, tzinfo=UTC))
    with Store(directory, engine=engine, clock=clock) as store:
        marker = directory / MARKER_FILE
        marker.write_text(json.dumps({**json.loads(marker.read_text()), DEMO_MARK: True}))
        decisions = play(store, scenario, clock)
        clock.time = datetime(2026, 11, 30, tzinfo=UTC)
        say = output.plain
        say(f"graphmem demo: {len(store.decisions())} writes replayed from the worked examples of "
            f"docs/semantics.md ({len(decisions)} fact writes), engine {store.engine}.\n")

        say("A late move — where does Ivan live?")
        for as_of, valid_at in (("2026-10-20", "2026-10-20"), ("now", "2026-10-20"), ("2026-11-10", "2026-10-10"),
                                ("2026-11-10", "2026-10-05"), ("now", "2026-10-05")):
            found = [v for v in store.beliefs(as_of=as_of, valid_at=valid_at)
                     if (v.subject, v.predicate) == ("Ivan", "lives_in")]
            say(f"  as of {as_of:10}  valid at {valid_at}:  {_values(found)}")
        say("")
        history = store.history("Ivan", "lives_in")
        output.versions_table(history, "History of (Ivan, lives_in), newest first",
                              {e.id: e for e in store.episodes()})

        say("\nEnding versus correcting — the Acme lead's status:")
        for as_of in ("2026-05-15", "now"):
            found = [v for v in store.beliefs(as_of=as_of) if v.subject == "Acme lead"]
            say(f"  as of {as_of:10}: {_values(found)}")
        for v in store.history("Acme lead", "status"):
            note = f" — retracted: {v.reason}" if v.status == "retracted" else ""
            say(f"  {v.id:4} {v.object:5} {output.period(v.valid_from, v.valid_to):28} {v.status}{note}")

        say("\nChat time — what Lin said, read at each message's own time:")
        now = store.beliefs()
        say(f"  lives in now: {_values([v for v in now if v.predicate == 'lives_in' and v.subject == 'Lin'])}; "
            f"before: {_values([v for v in store.beliefs(valid_at='2025-03-01') if v.subject == 'Lin'])}")
        apples = store.history("Lin", "likes")[0]
        say(f"  likes apples: {apples.status} on {output.period(apples.valid_from, apples.valid_to)}")
        trips = sorted((v for v in store.beliefs(valid_at="all") if v.predicate == "traveled_to"),
                       key=lambda v: v.valid_from, reverse=True)
        say("  travelled to: " + "; ".join(f"{v.object} ({output.period(v.valid_from, v.valid_to)})"
                                           for v in trips))

        say("\nWhat changed in belief since 2026-10-31 (diff 2026-10-31 now):")
        for c in store.diff("2026-10-31", "now"):
            changed = c.version
            if changed is None:  # a purge leaves nothing to show (the demo purges nothing)
                continue
            say(f"  {c.change:9} {c.believed:8} {changed.id:4} {changed.subject} {changed.predicate} "
                f"{changed.object} [{output.period(changed.valid_from, changed.valid_to)}]")

        problems = store.check()
        say(f"\ncheck: {'ok' if not problems else f'{len(problems)} violations'}")

        say("\nPictures (self-contained HTML pages; open them in a browser):")
        for name, path in write_pages(store, directory / PAGES).items():
            say(f"  {name:9}  {path.resolve()}")
        say(f"\nThe demo store is at {directory.resolve()} — explore it, e.g.:\n"
            f"  graphmem --store {directory} beliefs --as-of 2026-10-20\n"
            f"  graphmem --store {directory} history Ivan lives_in\n"
            f"  graphmem --store {directory} why Ivan lives_in --valid-at 2026-10-05 --as-of 2026-11-10\n"
            f"  graphmem --store {directory} render snapshot --as-of 2026-10-20 -o then.html")


def write_pages(store: Store, folder: Path) -> dict[str, Path]:
    """Draw the snapshot, the belief evolution and Ivan's timeline into ``folder``."""
    import visualize

    return {
        "snapshot": visualize.render_snapshot(store, folder / "snapshot.html"),
        "evolution": visualize.render_evolution(store, folder / "evolution.html"),
        "timeline": visualize.render_timeline(store, "Ivan", folder / "timeline-ivan.html"),
    }
