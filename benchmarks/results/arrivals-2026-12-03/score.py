"""What each arrival's first read wrote, scored against today's labels, by predicate (see README.md)."""

import collections
import glob
import json
from pathlib import Path

from graphmem.evaluation import PREDICATES, _compare, read_conversation_set
from graphmem.extract import ExtractedFact

FIELDS = set(ExtractedFact.model_fields)
DATA = Path("/work/main/tests/data")
total: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
wrongs = []
for found_file in sorted(glob.glob("/tmp/arr/found-*.jsonl")):
    names = Path(found_file).stem[len("found-"):].split("_")
    paths = [DATA / kind / "dev" / f"{n}.jsonl" for n in names for kind in ("conversations", "aliases")
             if (DATA / kind / "dev" / f"{n}.facts.jsonl").exists()]
    cases = {c.id: c for c in read_conversation_set(*paths)}
    per: collections.Counter = collections.Counter()
    for line in open(found_file):
        case_id, _where, found = json.loads(line)
        case = cases[case_id]
        facts = [ExtractedFact(**{k: v for k, v in d.items() if k in FIELDS}) for d in found]
        written = [f for f in facts if f.predicate in PREDICATES and f.sure]
        right, wrong, _ = _compare(case.facts, written, strict=False, objects="similar")
        for f in right:
            total[f.predicate]["right"] += 1
            per["right"] += 1
        for f in wrong:
            total[f.predicate]["wrong"] += 1
            per["wrong"] += 1
            wrongs.append((names, f.predicate, f.subject, f.object, case.text[:160]))
    print(names, dict(per))
print()
all_right = all_written = 0
for predicate, c in sorted(total.items(), key=lambda kv: -(kv[1]["right"] + kv[1]["wrong"])):
    n = c["right"] + c["wrong"]
    all_right += c["right"]
    all_written += n
    print(f"{predicate:14} {c['right']:4} of {n:4}  P={c['right'] / n:.2f}")
print(f"{'all':14} {all_right:4} of {all_written:4}  P={all_right / all_written:.3f}")
json.dump(wrongs, open("/tmp/arr/wrongs.json", "w"))
