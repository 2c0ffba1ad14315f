"""Everyday CLI commands on a store of ~50k versions: each one's whole process wall time.

Each command runs as a user runs it, a fresh ``python -m graphmem ...`` process, from start to
exit (start-up, imports, opening the store, the work, closing), next to a bare ``python -c pass``
measured in the same run, round after round, so the difference is what graphmem adds:

    python -m benchmarks.cli --versions 50000 --engine both --repeat 7

The store is built once per engine from a generated log (``benchmarks/generate.py``, the same
history as ``python -m benchmarks run``) with ``graphmem import`` and kept under ``--data``
(default ``$TMPDIR/graphmem-bench/cli``). Every round runs, in order: ``python -c pass``,
``graphmem --help``, ``graphmem history S lives_in``, ``graphmem timeline S``, ``graphmem add S
lives_in CITY`` and ``graphmem end S likes CITY`` (S: the entity with the most versions of
``lives_in``; before each round, an untimed ``add S likes CITY`` gives the end something to
end), so the writes keep adding to the store as a user's would, and their closes meet
the write-ahead log as it grows and is folded in. Results: a table (median and worst of each,
and the median minus bare Python's) and ``--out`` JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 0.4  # seconds over a bare Python start


def build(engine: str, versions: int, data: Path) -> tuple[Path, str]:
    """The store of ``versions`` versions for ``engine`` (made once), and a subject with a long
    history of lives_in."""
    from benchmarks.generate import generate, write_log

    log = data / f"log-{versions}.jsonl"
    if not log.exists():
        data.mkdir(parents=True, exist_ok=True)
        write_log(generate(versions), log)
    subject = _subject(log)
    store = data / f"store-{versions}-{engine}"
    if not (store / "graphmem.json").exists():
        print(f"building the {engine} store from {log} ...", file=sys.stderr, flush=True)
        _run(engine, store, "import", str(log))
    return store, subject


def _subject(log: Path) -> str:
    """The subject with the most lives_in versions."""
    lives = Counter()
    with log.open(encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            if record["type"] == "version" and record["predicate"] == "lives_in":
                lives[record["subject"]] += 1
    return lives.most_common(1)[0][0]


def _run(engine: str, store: Path, *args: str) -> float:
    """Run ``graphmem --store STORE ARGS`` in a fresh process; its wall time in seconds."""
    return _timed([sys.executable, "-m", "graphmem", "--store", str(store), "--engine", engine, *args])


def _timed(cmd: list[str]) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "80"}
    started = time.perf_counter()
    done = subprocess.run(cmd, env=env, cwd=tempfile.gettempdir(), capture_output=True, text=True)
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {done.stderr[-2000:]}")
    return took


def measure(engine: str, store: Path, subject: str, repeat: int) -> dict[str, list[float]]:
    """``repeat`` rounds of every command; each command's wall times."""
    times: dict[str, list[float]] = {}
    for n in range(repeat):
        city = f"Benchtown {os.getpid()}-{n}"
        rounds = {
            "python -c pass": lambda: _timed([sys.executable, "-c", "pass"]),
            "--help": lambda: _run(engine, store, "--help"),
            "history": lambda: _run(engine, store, "history", subject, "lives_in"),
            "timeline": lambda: _run(engine, store, "timeline", subject),
            "add": lambda: _run(engine, store, "add", subject, "lives_in", city),
            "end": lambda: _run(engine, store, "end", subject, "likes", city),
        }
        _run(engine, store, "add", subject, "likes", city)  # untimed: what the round's end ends
        for name, command in rounds.items():
            times.setdefault(name, []).append(command())
    return times


def report(results: dict[str, dict[str, list[float]]], versions: int) -> str:
    lines = [f"store of {versions} versions; wall time of the whole process, seconds (median / worst); "
             f"over: median minus python -c pass (target {TARGET})", ""]
    for engine, times in results.items():
        bare = statistics.median(times["python -c pass"])
        lines.append(f"{engine:8} {'command':16} {'median':>7} {'worst':>7} {'over':>7}")
        for name, walls in times.items():
            over = statistics.median(walls) - bare
            mark = "" if name == "python -c pass" else ("  ok" if over <= TARGET else "  MISSED")
            lines.append(f"{'':8} {name:16} {statistics.median(walls):7.3f} {max(walls):7.3f} {over:7.3f}{mark}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.cli", description=__doc__.split("\n")[0])
    parser.add_argument("--versions", type=int, default=50_000, help="versions in the store (default 50000)")
    parser.add_argument("--engine", choices=("kuzu", "ladybug", "both"), default="both")
    parser.add_argument("--repeat", type=int, default=7, help="rounds of every command (default 7)")
    parser.add_argument("--data", type=Path, default=Path(tempfile.gettempdir()) / "graphmem-bench" / "cli")
    parser.add_argument("--out", type=Path, help="write the times here as JSON")
    args = parser.parse_args(argv)
    engines = ["kuzu", "ladybug"] if args.engine == "both" else [args.engine]
    results = {}
    for engine in engines:
        store, subject = build(engine, args.versions, args.data)
        results[engine] = measure(engine, store, subject, args.repeat)
    print(report(results, args.versions))
    if args.out:
        args.out.write_text(json.dumps({"versions": args.versions, "repeat": args.repeat, "times": results},
                                       indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
