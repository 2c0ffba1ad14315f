"""Running the workload: one system per process, answers checked before anything is timed.

``run`` (the orchestrator) generates the log once per scale and seed, draws the
parameters, asks the model for the expected answers, then starts one worker
process per system (graphmem and the raw engine on each engine, SQLite, DuckDB):
kuzu and ladybug cannot share a process, and one process per system gives each its
own peak memory. Each worker loads the log (W2, timed), checks every answer
against the model, then times each query ``repeat`` times.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from .generate import generate, scale_versions, write_log
from .model import read_log
from .workload import QUERIES, decision_shapes, expected, fingerprint, make_params

READS = ("T1", "T2", "K1", "K2", "K3", "R1", "R2")
SYSTEMS = ("graphmem", "raw", "sqlite", "duckdb")
ENGINE_SYSTEMS = ("graphmem", "raw")
DEFAULT_DATA = Path(tempfile.gettempdir()) / "graphmem-bench"
RESULTS = Path(__file__).resolve().parent / "results"


class Mismatch(AssertionError):
    """A system's answer differs from the model's."""


def make_peer(system: str, engine: str | None, workdir: Path):
    if system == "graphmem":
        from .peer_graphmem import GraphmemPeer

        return GraphmemPeer(engine, workdir)
    if system == "raw":
        from .peer_raw import RawPeer

        return RawPeer(engine, workdir)
    if system == "sqlite":
        from .peer_sql import SqlitePeer

        return SqlitePeer(workdir)
    if system == "duckdb":
        from .peer_sql import DuckdbPeer

        return DuckdbPeer(workdir)
    raise ValueError(f"unknown system {system!r}")


def peak_mb() -> float:
    """This process's peak resident memory so far, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(fn, *args):
    """Run once; return (result, wall seconds, cpu seconds)."""
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn(*args)
    return result, time.perf_counter() - wall, time.process_time() - cpu


def summary(walls: list[float], cpus: list[float], per: int = 1) -> dict:
    """Median, min and max of repeated runs (per call when a run makes ``per`` calls)."""
    return {
        "median": statistics.median(walls) / per, "min": min(walls) / per, "max": max(walls) / per,
        "cpu_median": statistics.median(cpus) / per, "runs": len(walls), "per": per,
    }


def check(peer, query: str, answer, want: dict, edges: bool = False) -> None:
    got = fingerprint(peer.canon(query, answer), edges=edges)
    if got != want:
        raise Mismatch(f"{peer.name} {query}: got {got}, the model says {want}")


def work(system: str, engine: str | None, data: Path, repeat: int, load_repeat: int,
         workdir: Path, queries: tuple[str, ...] | None = None) -> dict:
    """One system's whole run: load, check, time (``queries``: a subset). Returns its results."""
    params = json.loads((data / "params.json").read_text())
    want = json.loads((data / "expected.json").read_text())
    log = data / "log.jsonl"
    versions = json.loads((data / "info.json").read_text())["versions"]
    peer = make_peer(system, engine, workdir)
    out: dict = {"system": system, "engine": engine, "queries": {}, "checked": []}
    try:
        walls, cpus = [], []
        for _ in range(load_repeat):
            _, wall, cpu = timed(peer.load, log)
            walls.append(wall)
            cpus.append(cpu)
        w2 = summary(walls, cpus)
        w2["rate"] = versions / w2["median"]
        out["queries"]["W2"] = w2
        out["rss_after_load_mb"] = peak_mb()
        reads = [q for q in READS if hasattr(peer, q) and (queries is None or q in queries)]
        for query in reads:
            check(peer, query, getattr(peer, query)(params[query]), want[query], edges=query == "T2")
            out["checked"].append(query)
        for query in reads:
            run = getattr(peer, query)
            walls, cpus = [], []
            for _ in range(repeat):
                _, wall, cpu = timed(run, params[query])
                walls.append(wall)
                cpus.append(cpu)
            per = {"K1": len(params["K1"]["keys"]), "K2": len(params["K2"]["ids"])}.get(query, 1)
            out["queries"][query] = summary(walls, cpus, per)
        if hasattr(peer, "W1") and (queries is None or "W1" in queries):
            out["queries"].update(time_writes(peer, params, want, out["checked"]))
    finally:
        peer.close()
    out["peak_rss_mb"] = peak_mb()
    return out


def time_writes(peer, params: dict, want: dict, checked: list) -> dict:
    """W1 per batch size: the first batch is checked untimed, the rest timed (and checked)."""
    results: dict = {}
    batches = params["W1"]["batches"]
    by_size: dict[int, list] = {}
    walls, cpus = [], []
    for index, batch in enumerate(batches):
        decisions, wall, cpu = timed(peer.W1, batch)
        walls.append(wall)
        cpus.append(cpu)
        check(peer, "W1", decisions, want["W1"][index])
        first = batch["size"] not in by_size
        by_size.setdefault(batch["size"], [])
        if not first:
            by_size[batch["size"]].append((wall, cpu))
    checked.append("W1")
    for size, runs in by_size.items():
        if runs:
            found = summary([w for w, _ in runs], [c for _, c in runs], size)
            found["rate"] = 1 / found["median"]
            results[f"W1[{size}]"] = found
    # What the batches left in the write-ahead log, written into the database file: part of
    # their cost that a commit defers (all three engines checkpoint later, by size).
    _, wall, cpu = timed(peer.checkpoint)
    results["W1ck"] = summary([wall], [cpu])
    asserts = sum(len(b["asserts"]) for b in batches)
    results["W1all"] = summary([sum(walls) + wall], [sum(cpus) + cpu], asserts)
    results["W1all"]["rate"] = 1 / results["W1all"]["median"]
    if hasattr(peer, "W1s"):
        decisions, wall, cpu = timed(peer.W1s, params["W1s"]["asserts"])
        got = fingerprint(decision_shapes(peer.canon("W1s", decisions)))
        if got != want["W1s_shape"]:
            raise Mismatch(f"{peer.name} W1s: got {got}, the model says {want['W1s_shape']}")
        found = summary([wall], [cpu], len(params["W1s"]["asserts"]["asserts"]))
        found["rate"] = 1 / found["median"]
        results["W1s"] = found
        checked.append("W1s")
    return results


# -- the orchestrator ---------------------------------------------------------------------------------


def prepare(scale: str, seed: int, data_root: Path, batch_sizes=None, batches: int | None = None) -> Path:
    """Generate (or reuse) the log for a scale and seed, with its parameters and expected answers."""
    versions = scale_versions(scale)
    data = data_root / f"{scale}-seed{seed}"
    if batch_sizes is None:
        batch_sizes = ((20,) if versions < 5000 else (100, 1000) if versions < 50000
                       else (1000, 10000))
    if batches is None:  # the first batch of each size is checked untimed, the rest timed
        batches = 4 if versions < 500_000 else 3
    single = 20 if versions < 5000 else 100 if versions < 500_000 else 30
    stamp = _code_stamp(("generate",))
    settings = f"{_code_stamp(('generate', 'model', 'workload'))} {batch_sizes} {batches} {single}"
    if (data / "stamp").exists() and (data / "stamp").read_text() == settings:
        return data
    data.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    if not (data / "log.stamp").exists() or (data / "log.stamp").read_text() != stamp:
        history = generate(versions, seed)
        write_log(history, data / "log.jsonl")
        del history
        (data / "log.stamp").write_text(stamp)
    generated = time.perf_counter() - started
    records = read_log(data / "log.jsonl")
    params = make_params(records, seed, batch_sizes=batch_sizes, batches=batches, single=single)
    (data / "params.json").write_text(json.dumps(params))
    (data / "expected.json").write_text(json.dumps(expected(records, params)))
    info = {
        "scale": scale, "seed": seed, "versions": len(records["version"]),
        "decisions": len(records["decision"]), "entities": len(records["entity"]),
        "episodes": len(records.get("episode", [])), "log_bytes": (data / "log.jsonl").stat().st_size,
        "generate_seconds": generated,
        "ops": _ops(records),
    }
    (data / "info.json").write_text(json.dumps(info))
    (data / "stamp").write_text(settings)
    return data


def _code_stamp(modules) -> str:
    """A fingerprint of the code that makes the data: cached data is remade when it changes."""
    here = Path(__file__).resolve().parent
    text = b"".join((here / f"{n}.py").read_bytes() for n in modules)
    return hashlib.sha256(text).hexdigest()[:16]


def _ops(records) -> dict:
    counts: dict[str, int] = {}
    for d in records["decision"]:
        counts[d["op"]] = counts.get(d["op"], 0) + 1
    return counts


def machine() -> dict:
    import duckdb
    import pyarrow

    info = {
        "python": platform.python_version(), "platform": platform.platform(),
        "cpus": os.cpu_count(), "memory_gb": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1),
        "processor": _cpu_model(), "load_average": os.getloadavg(),
        "sqlite": __import__("sqlite3").sqlite_version, "duckdb": duckdb.__version__,
        "pyarrow": pyarrow.__version__,
    }
    for module in ("kuzu", "ladybug"):
        try:
            from importlib.metadata import version

            info[module] = version(module)
        except Exception:  # noqa: BLE001
            info[module] = None
    return info


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def run(scale: str, engines: list[str], *, seed: int = 1, repeat: int = 5, load_repeat: int = 3,
        systems=SYSTEMS, data_root: Path = DEFAULT_DATA, out: Path | None = None,
        command: str = "", log=print, queries: tuple[str, ...] | None = None) -> dict:
    """Prepare the data, run every system in its own process, and save the results."""
    started = time.perf_counter()
    data = prepare(scale, seed, data_root)
    info = json.loads((data / "info.json").read_text())
    log(f"data: {data} ({info['versions']} versions, {info['decisions']} writes)")
    results = {"scale": scale, "seed": seed, "data": info, "machine": machine(), "command": command,
               "started": datetime.now(UTC).isoformat(timespec="seconds"), "repeat": repeat,
               "load_repeat": load_repeat, "queries": QUERIES, "only": list(queries or ()), "systems": []}
    target = out or RESULTS / f"{scale}-{'-'.join(engines)}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    jobs = [(s, e) for e in engines for s in systems if s in ENGINE_SYSTEMS]
    jobs += [(s, None) for s in systems if s not in ENGINE_SYSTEMS]
    for system, engine in jobs:
        label = f"{system}-{engine}" if engine else system
        log(f"running {label} ...")
        workdir = Path(tempfile.mkdtemp(prefix=f"bench-{label}-"))
        try:
            result_file = workdir / "result.json"
            cmd = [sys.executable, "-m", "benchmarks", "worker", "--system", system, "--data", str(data),
                   "--repeat", str(repeat), "--load-repeat", str(load_repeat), "--workdir", str(workdir),
                   "--out", str(result_file)]
            if engine:
                cmd += ["--engine", engine]
            if queries:
                cmd += ["--queries", ",".join(queries)]
            env = {**os.environ, **({"GRAPHMEM_ENGINE": engine} if engine else {})}
            subprocess.run(cmd, check=True, env=env, cwd=Path(__file__).resolve().parent.parent)
            results["systems"].append(json.loads(result_file.read_text()))
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        results["seconds"] = time.perf_counter() - started
        target.write_text(json.dumps(results, indent=1))  # saved after each system: a long run may stop
    results["seconds"] = time.perf_counter() - started
    target.write_text(json.dumps(results, indent=1))
    log(f"results: {target} ({results['seconds']:.0f} s)")
    return results
