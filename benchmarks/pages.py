"""Pages and the explorer, measured: evolution pages that grow with the writes, and explorer
answers next to the Store calls they make.

Results go to ``benchmarks/results/pages/`` (``--out``), apart from the query runs that
``python -m benchmarks report`` reads.

``python -m benchmarks.pages evolution --writes 2000`` builds a life-like store of that many
writes (:mod:`benchmarks.life`) and times ``render_evolution`` against the previous design of
the page (the whole believed graph listed at every write, rebuilt here exactly as it was
computed) and against a plain snapshot render of the same store; it reports page sizes and,
with Chromium installed, how long the page takes to draw.

``python -m benchmarks.pages explorer --store DIR`` serves DIR (e.g. a 100k store made from
``benchmarks.generate``) with the explorer in this process and times, per focus entity, the
HTTP answer of ``/api/graph`` and ``/api/timeline`` against the ``Store.neighbourhood`` and
``Store.timeline`` calls behind them (median of ``--repeat`` runs each, interleaved).
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import time
import urllib.parse
from datetime import datetime
from pathlib import Path

from graphmem import Store
from graphmem.core.as_known import believed as believed_at
from graphmem.core.temporal import status_at
from graphmem.core.times import UTC
from graphmem.scenario import ScenarioClock, play

from .life import life


def _timed(call, repeat: int = 1) -> tuple[float, object]:
    runs, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = call()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs), result


def full_graph_steps(versions, decisions) -> list[dict]:
    """The previous page's steps: at every write, every version believed then (with its
    status) was listed again, so the page grew with the writes times the graph."""
    by_id = {v.id: v for v in versions}
    steps = []
    for d in decisions:
        if not (d.created or d.closed):
            continue
        shown = {v.id: [v.id, status_at(v, d.at), v.id in d.created]
                 for v in by_id.values() if believed_at(v.recorded_at, v.superseded_at, d.at)}
        for vid in d.closed:
            if vid in by_id:
                shown.setdefault(vid, [vid, status_at(by_id[vid], d.at), True])
        steps.append({"id": d.id, "edges": sorted(shown.values())})
    return steps


def browser_draw_seconds(path: Path) -> float | None:
    """Seconds from opening the page in headless Chromium until it reports it has drawn."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    try:
        from tests.test_visualize_cdp import Browser, chromium_binary
    except ImportError:
        return None
    binary = chromium_binary()
    if binary is None:
        return None
    browser = Browser(binary, tempfile.mkdtemp(prefix="graphmem-bench-chromium-"))
    try:
        start = time.perf_counter()
        page = browser.open(path.as_uri())
        page.wait_for("window.graphmem && graphmem.status.ready && graphmem.status.stable", timeout=120)
        return time.perf_counter() - start
    finally:
        browser.close()


def evolution(writes: int, folder: Path) -> dict:
    import visualize

    folder.mkdir(parents=True, exist_ok=True)
    clock = ScenarioClock(datetime(2021, 1, 1, tzinfo=UTC))
    with Store(":memory:", clock=clock) as store:
        play(store, life(writes=writes), clock)
        versions, decisions = store.versions(), store.decisions()
        page = folder / "evolution.html"
        new_time, _ = _timed(lambda: visualize.render_evolution(store, page), 3)
        snap = folder / "snapshot.html"
        snap_time, _ = _timed(lambda: visualize.render_snapshot(store, snap, valid_at="all"), 3)
        old_time, old_steps = _timed(lambda: full_graph_steps(versions, decisions))
        old_bytes = len(json.dumps(old_steps, separators=(",", ":")))
        new_bytes = page.stat().st_size
        result = {
            "writes": sum(1 for d in decisions if d.created or d.closed), "versions": len(versions),
            "entities": len(store.entities()), "engine": store.engine,
            "evolution_bytes": new_bytes, "evolution_seconds": round(new_time, 3),
            "snapshot_bytes": snap.stat().st_size, "snapshot_seconds": round(snap_time, 3),
            "previous_steps_bytes": old_bytes, "previous_steps_seconds": round(old_time, 3),
            "previous_page_bytes_at_least": old_bytes + snap.stat().st_size,
        }
    result["evolution_draw_seconds"] = browser_draw_seconds(page)
    result["snapshot_draw_seconds"] = browser_draw_seconds(snap)
    return result


class _Client:
    """One kept-alive HTTP connection, as a browser keeps one to the explorer."""

    def __init__(self, base: str):
        parts = urllib.parse.urlsplit(base)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)

    def get(self, url: str) -> bytes:
        parts = urllib.parse.urlsplit(url)
        self.connection.request("GET", parts.path + ("?" + parts.query if parts.query else ""))
        response = self.connection.getresponse()
        body = response.read()
        if response.status not in (200, 204):
            raise RuntimeError(f"{url}: HTTP {response.status} {body[:200]!r}")
        return body


def explorer(store_dir: Path, focuses: list[str], repeat: int) -> dict:
    from graphmem.explorer.api import DEFAULT_LIMIT

    rows = []
    with Store(store_dir) as store:
        served = store.explore(port=0, open_browser=False, token=False)  # no token: plain URLs
        client = _Client(served.url)
        _get = client.get
        try:
            empty = statistics.median(_timed(lambda: _get(f"{served.url}favicon.ico"))[0] for _ in range(50))
            for focus in focuses:
                quoted = urllib.parse.quote(focus)
                pairs = {
                    "graph": (lambda f=focus: store.neighbourhood(f, depth=1, limit=DEFAULT_LIMIT),
                              f"{served.url}api/graph?focus={quoted}&depth=1"),
                    "graph depth 2": (lambda f=focus: store.neighbourhood(f, depth=2, limit=DEFAULT_LIMIT),
                                      f"{served.url}api/graph?focus={quoted}&depth=2"),
                    "timeline": (lambda f=focus: store.timeline(f),
                                 f"{served.url}api/timeline?entity={quoted}"),
                }
                for name, (call, url) in pairs.items():
                    _get(url), call()  # warm both
                    store_runs, http_runs = [], []
                    for _ in range(repeat):  # interleaved, so both see the same machine
                        store_runs.append(_timed(call)[0])
                        http_runs.append(_timed(lambda u=url: _get(u))[0])
                    answer = json.loads(_get(url))
                    size = len(answer["edges"]) if isinstance(answer, dict) else len(answer)
                    store_ms = statistics.median(store_runs) * 1000
                    http_ms = statistics.median(http_runs) * 1000
                    rows.append({"focus": focus, "what": name, "facts": size,
                                 "store_ms": round(store_ms, 1), "explorer_ms": round(http_ms, 1),
                                 "ratio": round(http_ms / store_ms, 2)})
        finally:
            served.stop()
        writes, versions, engine = len(store.write_times()), len(store.versions()), store.engine
    return {"store": str(store_dir), "engine": engine, "writes": writes, "versions": versions,
            "repeat": repeat, "empty_request_ms": round(empty * 1000, 2), "rows": rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.pages", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    e = sub.add_parser("evolution", help="evolution page size and time at N writes")
    e.add_argument("--writes", type=int, default=2000)
    e.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "graphmem-bench-pages")
    x = sub.add_parser("explorer", help="explorer answers against the Store calls behind them")
    x.add_argument("--store", type=Path, required=True)
    x.add_argument("--focus", action="append", default=None, help="entity to focus on (repeatable)")
    x.add_argument("--repeat", type=int, default=15)
    for p in (e, x):
        p.add_argument("--out", type=Path, default=None, help="also save the result as JSON here")
    args = parser.parse_args(argv)
    if args.command == "evolution":
        result = evolution(args.writes, args.dir)
    else:
        result = explorer(args.store, args.focus or ["person 1", "company 366", "city 3"], args.repeat)
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
