"""Everyday CLI commands on a store of ~50k versions: each one's whole process wall time, with and without a holder.

Each command runs as a user runs it, a fresh ``python -m graphmem ...`` process, from start to
exit, next to a bare ``python -c pass`` measured in the same run, round after round, so the
difference is what graphmem adds:

    python -m benchmarks.cli --versions 50000 --engine both --repeat 7

The store is built once per engine from a generated log (``benchmarks/generate.py``, the same
history as ``python -m benchmarks run``) with ``graphmem import`` and kept under ``--data``
(default ``$TMPDIR/graphmem-bench/cli``). Every round has two halves, their order alternating
from round to round (so a noisy neighbour weighs on both alike), each starting with a bare
``python -c pass``:

- **alone**: no process holds the store; each command opens it for its own short life (start-up,
  imports, opening the store, the work, closing): ``graphmem --help``, ``history S lives_in``,
  ``timeline S``, ``add S lives_in CITY``, ``end S likes CITY`` and ``search "where does S live"``.
- **client**: an idle ``graphmem serve`` started by the benchmark holds the store (waited for
  until ``graphmem status`` says held, and one untimed search so its search index is built, as
  it would be in a holder that has answered one); each command is a client that sends its
  command line to the holder and prints the answer: ``history``, ``timeline``, ``add``, ``end``
  and ``search``. The holder is stopped (SIGTERM) at the end of the half.

S is the entity with the most versions of ``lives_in``; before each half an untimed ``add S
likes CITY`` gives the end something to end, so the writes keep adding to the store as a user's
would, and the alone half's closes meet the write-ahead log as it grows and is folded in.
A client's CPU time is its own; the holder's CPU time for each client command is read from
/proc (Linux) and reported beside it (``holder cpu``): on a loaded machine, where wall times
wait for a core, the two CPU times are the steady reading of what a command costs.
Targets: a client command within ``CLIENT_TARGET`` (0.15 s) of a bare Python start, history,
timeline, add and end alone within ``TARGET`` (0.4 s). Results: a table (median and worst of
each, and both minus bare Python's median in the same run) and ``--out`` JSON.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 0.4  # seconds over a bare Python start, a command without a holder
CLIENT_TARGET = 0.15  # seconds over a bare Python start, a command answered by an idle holder
#: The commands held to a target (search without a holder builds its index: measured, no target).
TARGETS = {**{name: TARGET for name in ("history", "timeline", "add", "end")},
           **{f"client {name}": CLIENT_TARGET for name in ("history", "timeline", "add", "end", "search")}}
BARE = "python -c pass"


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
    return _timed(_graphmem(engine, store, *args))


def _timed(cmd: list[str]) -> tuple[float, float]:
    """Run ``cmd``; its wall time and its CPU time (user + system), in seconds. On a shared
    machine the CPU time is the steadier of the two: it does not count waiting for a core (a
    client's is its own, not its holder's)."""
    started = time.perf_counter()
    child = subprocess.Popen(cmd, env=_env(), cwd=tempfile.gettempdir(), stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    took = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {child.stderr.read().decode()[-2000:]}")
    child.stderr.close()
    return took, usage.ru_utime + usage.ru_stime


def _cpu_of(pid: int) -> float | None:
    """The CPU time (user + system) process ``pid`` has used so far, in seconds (Linux's /proc;
    None elsewhere): a holder's work for a client, which the client's own CPU time leaves out."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _graphmem(engine: str, store: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "graphmem", "--store", str(store), "--engine", engine, *args]


def _env() -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "80"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: modules load from compiled bytecode
    for key in [key for key in env if key.startswith("GRAPHMEM_EMBED_")]:
        env.pop(key)  # keyword search only: no embeddings endpoint is called
    return env


@contextmanager
def holding(engine: str, store: Path, wait: float = 120.0) -> Iterator[subprocess.Popen]:
    """An idle ``graphmem serve`` of ``store`` while the block runs (started, waited for until
    ``graphmem status`` says held; stopped with SIGTERM after)."""
    holder = subprocess.Popen(_graphmem(engine, store, "serve"), env=_env(), cwd=tempfile.gettempdir(),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + wait
        while not _held(engine, store):
            if holder.poll() is not None:
                raise SystemExit(f"graphmem serve exited: {holder.stderr.read().decode()[-2000:]}")
            if time.monotonic() > deadline:
                raise SystemExit(f"graphmem serve did not hold {store} within {wait} s")
            time.sleep(0.1)
        yield holder
    finally:
        holder.send_signal(signal.SIGTERM)
        try:
            holder.wait(60)
        except subprocess.TimeoutExpired:
            holder.kill()
            holder.wait()
        holder.stderr.close()


def _held(engine: str, store: Path) -> bool:
    done = subprocess.run(_graphmem(engine, store, "status", "--json"), env=_env(), capture_output=True, text=True)
    return done.returncode == 0 and bool(json.loads(done.stdout or "[{}]")[0].get("held"))


def measure(engine: str, store: Path, subject: str, repeat: int) -> dict[str, dict[str, list]]:
    """``repeat`` rounds of every command, alone and as a client of a holder, the two halves'
    order alternating; each command's wall and CPU times, and the size of the write-ahead log
    after each write alone (it shrinks where a close checkpointed)."""
    times: dict[str, dict[str, list]] = {}
    wal = store / "graph.db.wal"
    question = f"where does {subject} live"

    def record(name: str, took: tuple[float, float], log: bool = False, holder: float | None = None) -> None:
        entry = times.setdefault(name, {"wall": [], "cpu": [], **({"log_after": []} if log else {})})
        entry["wall"].append(took[0])
        entry["cpu"].append(took[1])
        if log:
            entry["log_after"].append(wal.stat().st_size if wal.exists() else 0)
        if holder is not None:
            entry.setdefault("holder_cpu", []).append(holder)

    def half(n: int, client: bool, holder: int | None = None) -> None:
        city = f"Benchtown {os.getpid()}-{n}-{'client' if client else 'alone'}"
        prefix = "client " if client else ""
        commands = {
            "history": ("history", subject, "lives_in"),
            "timeline": ("timeline", subject),
            "add": ("add", subject, "lives_in", city),
            "end": ("end", subject, "likes", city),
            "search": ("search", question),
        }
        if not client:
            commands = {"--help": ("--help",), **commands}
        _run(engine, store, "add", subject, "likes", city)  # untimed: what the half's end ends
        record(BARE, _timed([sys.executable, "-c", "pass"]))
        for name, args in commands.items():
            before = None if holder is None else _cpu_of(holder)
            took = _run(engine, store, *args)
            after = None if holder is None else _cpu_of(holder)
            record(prefix + name, took, log=not client and name in ("add", "end"),
                   holder=None if before is None or after is None else after - before)

    for n in range(repeat):
        for client in ((True, False) if n % 2 else (False, True)):
            if client:
                with holding(engine, store) as held:
                    _run(engine, store, "search", question)  # untimed: the holder builds its search index
                    half(n, True, held.pid)
            else:
                half(n, False)
    return times


def summary(times: dict[str, dict[str, list]]) -> dict[str, dict[str, float]]:
    """Each command's median and worst wall time, and both minus bare Python's median (same run)."""
    bare = statistics.median(times[BARE]["wall"])
    return {name: {"median": statistics.median(entry["wall"]), "worst": max(entry["wall"]),
                   "over": statistics.median(entry["wall"]) - bare, "worst_over": max(entry["wall"]) - bare,
                   "cpu": statistics.median(entry["cpu"]),
                   **({"holder_cpu": statistics.median(entry["holder_cpu"])} if entry.get("holder_cpu") else {}),
                   **({"target": TARGETS[name]} if name in TARGETS else {})}
            for name, entry in times.items()}


def report(results: dict[str, dict[str, dict[str, list]]], versions: int) -> str:
    lines = [f"store of {versions} versions; seconds of the whole process, median (worst); over: median (worst) "
             f"wall minus {BARE}'s median in the same run; targets {CLIENT_TARGET} over as a client of an idle "
             f"holder, {TARGET} alone", ""]
    for engine, times in results.items():
        lines.append(f"{engine:8} {'command':17} {'wall':>14} {'cpu':>14} {'over':>15}")
        for name, row in summary(times).items():
            entry = times[name]
            target = row.get("target")
            mark = "" if target is None else ("  ok" if row["over"] <= target else "  missed")
            log = f"  log after: {', '.join(f'{b // 1024} KB' for b in entry['log_after'])}" \
                if entry.get("log_after") else ""
            if "holder_cpu" in row:
                log += f"  holder cpu {row['holder_cpu']:.3f}"
            lines.append(f"{'':8} {name:17} {row['median']:6.3f} ({row['worst']:5.2f}) "
                         f"{row['cpu']:6.3f} ({max(entry['cpu']):5.2f}) {row['over']:6.3f} ({row['worst_over']:5.2f})"
                         f"{mark}{log}")
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
        load = os.getloadavg() if hasattr(os, "getloadavg") else None
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({
            "versions": args.versions, "repeat": args.repeat, "cpus": os.cpu_count(), "load_at_end": load,
            "targets": {"client": CLIENT_TARGET, "alone": TARGET},
            "summary": {engine: summary(times) for engine, times in results.items()},
            "times": results}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
