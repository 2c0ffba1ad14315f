"""The rules extractor's speed on natural chat: every message of the dev chats, read as ingest reads them.

    python -m benchmarks.extract_speed [--baseline DIR] [--repeat 3] [--json OUT]

Reads every dev chat of the two evaluation sets (``tests/data/conversations/dev``,
``tests/data/aliases/dev``), with each message's context (the other participant, the turn before),
through ``RuleExtractor().extract_many`` in a fresh process, and reports the CPU seconds the
extraction took (imports and reading the files not counted) and messages per CPU-second.
``--baseline DIR`` runs another graphmem source tree (``git archive C | tar -x -C DIR``) on the
same messages, alternated with this one, and checks that both proposed the same facts.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Run under the code measured (its ``graphmem`` first on the path): prints the CPU seconds, the
#: number of messages and a digest of every fact proposed.
_RUN = """
import hashlib, json, sys, time
from pathlib import Path
from graphmem.evaluation import extract_all, read_conversation_set
from graphmem.extract import RuleExtractor
root = Path(sys.argv[1]) / "tests" / "data"
files = sorted(p for d in (root / "conversations" / "dev", root / "aliases" / "dev")
               for p in d.glob("*.jsonl") if p.name.count(".") == 1 and p.with_suffix(".facts.jsonl").exists())
cases = read_conversation_set(*files)
extractor = RuleExtractor()
began = time.process_time()
facts, _ = extract_all(extractor, cases)
spent = time.process_time() - began
digest = hashlib.sha256(repr([[f.model_dump(mode="json") for f in one] for one in facts]).encode()).hexdigest()
print(json.dumps({"cpu": spent, "messages": len(cases), "digest": digest}))
"""


def measure(code: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", _RUN, str(ROOT)], cwd=code, capture_output=True, text=True,
                          env={"PYTHONPATH": str(code), "PATH": "/usr/bin:/bin", "HOME": str(Path.home())})
    if done.returncode:
        raise SystemExit(f"the extraction under {code} failed: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="another graphmem source tree, run alternated with this one")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, help="write the runs here")
    args = parser.parse_args(argv)
    codes = {"this": ROOT} | ({"baseline": args.baseline.resolve()} if args.baseline else {})
    runs: dict[str, list[dict]] = {name: [] for name in codes}
    for _ in range(args.repeat):
        for name, code in codes.items():
            runs[name].append(measure(code))
    for name, done in runs.items():
        cpu = statistics.median(r["cpu"] for r in done)
        messages = done[0]["messages"]
        print(f"{name:9} {messages} messages, {cpu:.2f} CPU-s median of {len(done)} "
              f"({min(r['cpu'] for r in done):.2f}-{max(r['cpu'] for r in done):.2f}), "
              f"{messages / cpu:,.0f} messages per CPU-s")
    if args.baseline:
        same = {r["digest"] for done in runs.values() for r in done}
        ratio = statistics.median(r["cpu"] for r in runs["this"]) / statistics.median(
            r["cpu"] for r in runs["baseline"])
        print(f"this / baseline: {ratio:.2f}x CPU; the same facts: {'yes' if len(same) == 1 else 'NO'}")
    if args.json:
        args.json.write_text(json.dumps(runs, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
