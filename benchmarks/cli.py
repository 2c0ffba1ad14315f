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
import compileall
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
        _run(engine, store, "import", "--large", str(log))
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


def _run(engine: str, store: Path, *args: str) -> tuple[float, float]:
    """Run ``graphmem --store STORE ARGS`` in a fresh process; its wall and CPU times."""
    return _timed([sys.executable, "-m", "graphmem", "--store", str(store), "--engine", engine, *args])


def _timed(cmd: list[str]) -> tuple[float, float]:
    """Run ``cmd``; its wall time and its CPU time (user + system), in seconds. On a shared
    machine the CPU time is the steadier of the two: it does not count waiting for a core."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "80"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: modules load from compiled bytecode
    started = time.perf_counter()
    child = subprocess.Popen(cmd, env=env, cwd=tempfile.gettempdir(), stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    took = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {child.stderr.read().decode()[-2000:]}")
    child.stderr.close()
    return took, usage.ru_utime + usage.ru_stime


def measure(engine: str, store: Path, subject: str, repeat: int) -> dict[str, dict[str, list]]:
    """``repeat`` rounds of every command; each command's wall and CPU times, and the size of the
    write-ahead log after each write (it shrinks where a close checkpointed)."""
    times: dict[str, dict[str, list]] = {}
    wal = store / "graph.db.wal"
    for n in range(repeat):
        city = f"Benchtown {os.getpid()}-{n}"
        rounds = {
            "python -c pass": lambda: _timed([sys.executable, "-c", "pass"]),
            "--help": lambda: _run(engine, store, "--help"),
            "history": lambda: _run(engine, store, "history", subject, "lives_in"),
            "timeline": lambda: _run(engine, store, "timeline", subject),
            "add": lambda city=city: _run(engine, store, "add", subject, "lives_in", city),
            "end": lambda city=city: _run(engine, store, "end", subject, "likes", city),
        }
        _run(engine, store, "add", subject, "likes", city)  # untimed: what the round's end ends
        for name, command in rounds.items():
            wall, cpu = command()
            entry = times.setdefault(name, {"wall": [], "cpu": [], "log_after": []})
            entry["wall"].append(wall)
            entry["cpu"].append(cpu)
            if name in ("add", "end"):
                entry["log_after"].append(wal.stat().st_size if wal.exists() else 0)
    return times


def report(results: dict[str, dict[str, dict[str, list]]], versions: int) -> str:
    lines = [f"store of {versions} versions; seconds, median (worst) of the whole process; over: median wall "
             f"minus python -c pass's (target {TARGET})", ""]
    for engine, times in results.items():
        bare = statistics.median(times["python -c pass"]["wall"])
        lines.append(f"{engine:8} {'command':15} {'wall':>14} {'cpu':>14} {'over':>6}")
        for name, entry in times.items():
            wall, cpu = entry["wall"], entry["cpu"]
            over = statistics.median(wall) - bare
            mark = "" if name == "python -c pass" else ("  ok" if over <= TARGET else "  missed")
            log = f"  log after: {', '.join(f'{b // 1024} KB' for b in entry['log_after'])}" \
                if entry.get("log_after") else ""
            lines.append(f"{'':8} {name:15} {statistics.median(wall):6.3f} ({max(wall):5.2f}) "
                         f"{statistics.median(cpu):6.3f} ({max(cpu):5.2f}) {over:6.3f}{mark}{log}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines.append(f"\n{os.cpu_count()} CPUs; load average at the end {load:.1f}")
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
    # pip compiles an installed package; a checkout run with PYTHONDONTWRITEBYTECODE set (as on
    # this project's machines) would otherwise compile every changed module in every command
    compileall.compile_dir(ROOT / "graphmem", quiet=1)
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
