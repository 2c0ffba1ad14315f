"""Run with PYTHONPATH set to an old tree: what that code's extractor finds in each case, one JSON line each."""

import json
import sys

from graphmem.evaluation import extract_all, read_conversation_set
from graphmem.extract import RuleExtractor

out, paths = sys.argv[1], sys.argv[2:]
cases = read_conversation_set(*paths)
found_all, _ = extract_all(RuleExtractor(), cases)
with open(out, "w") as fh:
    for case, found in zip(cases, found_all, strict=True):
        fh.write(json.dumps([case.id, case.where, [f.model_dump(mode="json") for f in found]]) + "\n")
