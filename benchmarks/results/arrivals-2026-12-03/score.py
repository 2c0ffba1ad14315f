import sys, json, glob, collections
from pathlib import Path
from graphmem.evaluation import read_conversation_set, _compare, PREDICATES
from graphmem.extract import ExtractedFact
fields = set(ExtractedFact.model_fields)
D = Path("/work/main/tests/data")
tot = collections.defaultdict(collections.Counter)
wrongs = []
for fp in sorted(glob.glob("/tmp/arr/found-*.jsonl")):
    names = Path(fp).stem[len("found-"):].split("_")
    paths = [D/s/"dev"/f"{n}.jsonl" for n in names for s in ("conversations","aliases") if (D/s/"dev"/f"{n}.facts.jsonl").exists()]
    cases = {c.id: c for c in read_conversation_set(*paths)}
    per = collections.Counter()
    for line in open(fp):
        cid, where, found = json.loads(line)
        case = cases[cid]
        facts = [ExtractedFact(**{k: v for k, v in d.items() if k in fields}) for d in found]
        facts = [f for f in facts if f.predicate in PREDICATES]
        sure = [f for f in facts if f.sure]
        right, wrong, _ = _compare(case.facts, sure, strict=False, objects="similar")
        for f in right: tot[f.predicate]["right"] += 1; per["right"] += 1
        for f in wrong:
            tot[f.predicate]["wrong"] += 1; per["wrong"] += 1
            wrongs.append((names, f.predicate, f.subject, f.object, case.text[:160]))
    print(names, dict(per))
print()
R = N = 0
for p, c in sorted(tot.items(), key=lambda kv: -(kv[1]["right"]+kv[1]["wrong"])):
    n = c["right"]+c["wrong"]; R += c["right"]; N += n
    print(f"{p:14} {c['right']:4} of {n:4}  P={c['right']/n:.2f}")
print(f"{'all':14} {R:4} of {N:4}  P={R/N:.3f}")
json.dump(wrongs, open("/tmp/arr/wrongs.json","w"))
