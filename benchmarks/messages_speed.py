"""Search with messages on a large store: the message index's build, sync, and steady state.

A store of ``--scale`` fact versions (the generator's log, as ``benchmarks.recall_speed``) and
``--messages`` chat messages (:mod:`benchmarks.chat`: two-person conversations over the log's
months, most of them supporting no fact), loaded in one ``Store.import_log``. Each step runs in
its own process, one engine per process:

- ``load``: import the log into a new store (no ``messages.sqlite`` yet);
- ``first``: open it and search: the fact index is built (timed apart, ``messages=False``), then
  the message index from nothing (seconds, messages/s, file size);
- ``second``: open it again in a new process and search: the file is only checked (sync cost),
  not rebuilt; then, in that process, warm ``Store.search`` over a fixed sample of questions
  (facts, messages, some with a time phrase) against ``Store.timeline(person)``, median and p90;
  a write then a search (the index follows one new episode); a purge of one episode then a
  search (the file reconciled, the purged text in no byte of it).

    python -m benchmarks.messages_speed --engine kuzu [--scale 100k] [--messages 500000] [--out FILE]

Run it once per engine. The log and each engine's loaded store are kept under ``--data``
(reused when present; ``--fresh`` loads again).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.chat import with_messages
from benchmarks.recall_speed import _median_ms
from benchmarks.runner import DEFAULT_DATA, _code_stamp, prepare

FACT_QUESTIONS = ("where does {p} live", "who does {p} work for", "what does {p} like",
                  "where did {p} travel in 2020")
MESSAGE_QUESTIONS = ("what did {p} say about the concert", "when did {p} go hiking",
                     "what did {p} say about the wedding in March 2020", "has {p} tried the sushi place",
                     "what is the name of {p}'s dog", "what did {p} say about the trip last summer",
                     "when did {p} sign up for a pottery class", "who went kayaking in June 2020")


def _log(data: Path, count: int) -> tuple[Path, dict]:
    out = data / f"log-messages-{count}.jsonl"
    info = data / f"log-messages-{count}.json"
    stamp = _code_stamp(("generate", "chat"))
    if not (out.exists() and info.exists() and json.loads(info.read_text()).get("stamp") == stamp):
        started = time.perf_counter()
        made = with_messages(data / "log.jsonl", out, count)
        made.update(stamp=stamp, seconds=round(time.perf_counter() - started, 1))
        info.write_text(json.dumps(made))
    return out, json.loads(info.read_text())


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def _timed_sync():
    """Wrap MessageIndex.sync to record each call's seconds and the rows it left."""
    from graphmem.recall._messages import MessageIndex

    calls: list[dict] = []
    original = MessageIndex.sync

    def sync(self, engine, meta, tz):
        before = self._known()
        started = time.perf_counter()
        original(self, engine, meta, tz)
        calls.append({"seconds": time.perf_counter() - started, "changed": self._known() != before})
    MessageIndex.sync = sync
    return calls


def _sample(store, seed: int, people: int) -> list[str]:
    import sqlite3

    from graphmem.recall._messages import FILE

    db = sqlite3.connect(store.path / FILE)  # people who talk, so message questions have answers
    speakers = sorted(a for (a,) in db.execute("SELECT DISTINCT actor FROM message WHERE actor IS NOT NULL"))
    db.close()
    return random.Random(seed).sample(speakers, min(people, len(speakers)))


def phase_load(store_dir: Path, engine: str, log: Path) -> dict:
    from graphmem import Store

    if store_dir.exists():
        shutil.rmtree(store_dir)
    store = Store(store_dir, engine=engine)
    try:
        started = time.perf_counter()
        store.import_log(log, large=True)
        loaded = time.perf_counter() - started
    finally:
        store.close()
    return {"load_seconds": round(loaded, 1)}


def phase_first(store_dir: Path, engine: str) -> dict:
    from graphmem import Store
    from graphmem.recall._messages import FILE

    (store_dir / FILE).unlink(missing_ok=True)
    calls = _timed_sync()
    store = Store(store_dir, engine=engine)
    try:
        started = time.perf_counter()
        store.search("where does Person 1 live", messages=False)
        facts = time.perf_counter() - started
        started = time.perf_counter()
        store.search("where does Person 1 live")
        first = time.perf_counter() - started
        (held,) = store._message_index().db.execute("SELECT count(*) FROM message").fetchone()
    finally:
        store.close()
    build = calls[0]["seconds"]
    return {"fact_index_build_seconds": round(facts, 2), "first_message_search_seconds": round(first, 2),
            "message_index_build_seconds": round(build, 2), "messages_indexed": held,
            "build_messages_per_second": round(held / build),
            "file_mb": round((store_dir / FILE).stat().st_size / 2**20, 1)}


def phase_second(store_dir: Path, engine: str, repeat: int, people: int, seed: int, purge: bool) -> dict:
    from graphmem import Store
    from graphmem.recall._messages import FILE

    calls = _timed_sync()
    store = Store(store_dir, engine=engine)
    result: dict = {}
    try:
        started = time.perf_counter()
        store.search("where does Person 1 live")
        result["second_process_first_search_seconds"] = round(time.perf_counter() - started, 2)
        result["second_process_sync_ms"] = _ms(calls[0]["seconds"])
        result["second_process_rebuilt"] = calls[0]["changed"]
        sample = _sample(store, seed, people)
        questions = [q for q in FACT_QUESTIONS + MESSAGE_QUESTIONS]
        timeline = [_median_ms(lambda p=p: store.timeline(p), repeat) for p in sample]
        by_question = {q: [_median_ms(lambda p=p, q=q: store.search(q.format(p=p)), repeat) for p in sample]
                       for q in questions}
        facts = [x for q in FACT_QUESTIONS for x in by_question[q]]
        said = [x for q in MESSAGE_QUESTIONS for x in by_question[q]]
        every = facts + said
        timeline_ms = statistics.median(timeline)
        result.update({
            "people": len(sample), "repeat": repeat, "timeline_ms": round(timeline_ms, 3),
            "search_ms": round(statistics.median(every), 3), "search_p90_ms": round(_p90(every), 3),
            "fact_questions_ms": round(statistics.median(facts), 3),
            "message_questions_ms": round(statistics.median(said), 3),
            "search_ms_by_question": {q: round(statistics.median(v), 3) for q, v in by_question.items()},
            "ratio": round(statistics.median(every) / timeline_ms, 2),
            "ratio_p90": round(_p90(every) / timeline_ms, 2),
        })
        writes, syncs = [], []
        for i, person in enumerate(sample[:10]):
            before = len(calls)
            started = time.perf_counter()
            store.add_episode(f"{person}: I adopted a ferret named Quibble{i} last week", kind="chat", actor=person)
            store.search(f"what did {person} say about the ferret")
            writes.append(time.perf_counter() - started)
            syncs.append(calls[before]["seconds"])
        result["write_then_search_ms"] = _ms(statistics.median(writes))
        result["incremental_sync_ms"] = _ms(statistics.median(syncs))
        if purge:
            secret = "Zyzzogeton secret plan"
            episode = store.add_episode(f"{sample[0]}: {secret} for the surprise party", kind="chat",
                                        actor=sample[0])
            store.search("surprise party")
            before = len(calls)
            started = time.perf_counter()
            store.purge("episode", episode.id if hasattr(episode, "id") else episode)
            result["purge_seconds"] = round(time.perf_counter() - started, 2)
            result["purge_reconcile_seconds"] = round(sum(c["seconds"] for c in calls[before:]), 2)
            started = time.perf_counter()
            found = store.search("Zyzzogeton surprise party")
            result["search_after_purge_ms"] = _ms(time.perf_counter() - started)
            result["purged_text_found"] = any(secret in (getattr(a, "text", "") or "") for a in found)
            result["purged_text_in_file"] = b"Zyzzogeton" in (store_dir / FILE).read_bytes()
        result["file_mb_after"] = round((store_dir / FILE).stat().st_size / 2**20, 1)
    finally:
        store.close()
    return result


def _p90(values: list[float]) -> float:
    return sorted(values)[int(0.9 * (len(values) - 1))]


def _child(args: list[str]) -> dict:
    found = subprocess.run([sys.executable, "-m", "benchmarks.messages_speed", *args], check=True,
                           capture_output=True, text=True, env=os.environ)
    return json.loads(found.stdout.strip().splitlines()[-1])


def run(scale: str, messages: int, engine: str, repeat: int, people: int, data_root: Path, seed: int = 1,
        fresh: bool = False, purge: bool = True) -> dict:
    data = prepare(scale, seed, data_root)
    info = json.loads((data / "info.json").read_text())
    log, made = _log(data, messages)
    store_dir = data / f"store-messages-{messages}-{engine}"
    result: dict = {"scale": scale, "engine": engine, "versions": info["versions"], "chat": made}
    common = ["--engine", engine, "--store", str(store_dir)]
    if fresh or not (store_dir / ".loaded").exists():
        result.update(_child(["--phase", "load", "--log", str(log), *common]))
        (store_dir / ".loaded").write_text(str(log))
    result.update(_child(["--phase", "first", *common]))
    result.update(_child(["--phase", "second", "--repeat", str(repeat), "--people", str(people),
                          "--seed", str(seed), *common, *([] if purge else ["--no-purge"])]))
    result["machine"] = {"python": platform.python_version(), "cpus": len(os.sched_getaffinity(0)),
                         "platform": platform.platform()}
    result["when"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", default="100k")
    parser.add_argument("--messages", type=int, default=500_000)
    parser.add_argument("--engine", default="kuzu", choices=("kuzu", "ladybug"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--people", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--fresh", action="store_true", help="load the store again")
    parser.add_argument("--no-purge", action="store_true")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--phase", choices=("load", "first", "second"), help=argparse.SUPPRESS)
    parser.add_argument("--store", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--log", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.phase == "load":
        print(json.dumps(phase_load(args.store, args.engine, args.log)))
        return
    if args.phase == "first":
        print(json.dumps(phase_first(args.store, args.engine)))
        return
    if args.phase == "second":
        print(json.dumps(phase_second(args.store, args.engine, args.repeat, args.people, args.seed,
                                      not args.no_purge)))
        return
    result = run(args.scale, args.messages, args.engine, args.repeat, args.people, args.data, args.seed,
                 args.fresh, not args.no_purge)
    result["command"] = "python -m benchmarks.messages_speed " + " ".join(argv if argv is not None else sys.argv[1:])
    text = json.dumps(result, indent=2)
    if args.out:
        args.out.write_text(text + "\n")
    print(text)
    print(f"{args.scale}+{args.messages} messages {engine_label(args)}: search {result['search_ms']:.1f} ms "
          f"(p90 {result['search_p90_ms']:.1f}) vs timeline {result['timeline_ms']:.1f} ms: {result['ratio']:.2f}x; "
          f"build {result['message_index_build_seconds']:.0f} s ({result['build_messages_per_second']}/s)",
          file=sys.stderr)


def engine_label(args) -> str:
    return args.engine


if __name__ == "__main__":
    main()
