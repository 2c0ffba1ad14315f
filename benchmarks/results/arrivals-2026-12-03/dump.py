# run with PYTHONPATH=<old code>: dump what that code's extractor finds per case
import sys, json
from graphmem.evaluation import read_conversation_set, extract_all
from graphmem.extract import RuleExtractor
out, paths = sys.argv[1], sys.argv[2:]
cases = read_conversation_set(*paths)
found_all, _ = extract_all(RuleExtractor(), cases)
with open(out, "w") as fh:
    for case, found in zip(cases, found_all):
        fh.write(json.dumps([case.id, case.where, [f.model_dump(mode="json") for f in found]]) + "\n")
