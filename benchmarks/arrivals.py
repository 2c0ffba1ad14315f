"""What the rules extractor writes on chats it had never seen: each held-out pair scored by the code of
the session it arrived in, per predicate.

    python -m benchmarks.arrivals [--json OUT]

Every pair of conversation chats written for ``heldout/`` was scored once on arrival by the code of
that day, before anyone tuned on it, then moved to ``dev/`` (``tests/data/conversations/README.md``
has the history). :data:`ARRIVALS` names each pair with that code's commit (from
``benchmarks/results/heldout-*/README.md``). For each, the commit's ``graphmem`` is extracted with
``git archive`` into a temporary directory and run in a process of its own on the pair's chats as
they are now in ``dev/``: what ``--approve`` writes, right or wrong against the labels, per
predicate. The precision it gives is out of sample for the code that made it, unlike dev's, which
the rules were tuned on. Needs the repository's git history.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEV = ROOT / "tests" / "data" / "conversations" / "dev"

#: Each pair that arrived in ``heldout/``, with the commit that scored it on arrival.
ARRIVALS: tuple[tuple[str, tuple[str, str]], ...] = (
    ("5dfb204", ("h13", "h14")), ("cd86148", ("h15", "h16")), ("3f58d47", ("h17", "h18")),
    ("df7e1aa", ("h19", "h20")), ("71a1b31", ("h21", "h22")), ("22e314d", ("h23", "h24")),
    ("4909a60", ("h25", "h26")), ("6a9110e", ("h27", "h28")), ("3faf576", ("h29", "h30")),
    ("c25ec7e", ("h31", "h32")), ("268c234", ("h33", "h34")), ("4e3a119", ("h35", "h36")),
    ("0e49fcb", ("h37", "h38")),
)

#: Run under the code measured: the written facts of the chats named, right and wrong per predicate.
_RUN = """
import json, sys
from collections import Counter, defaultdict
from graphmem.evaluation import PREDICATES, _compare, extract_all, read_conversation_set
from graphmem.extract import RuleExtractor
cases = read_conversation_set(*sys.argv[1:])
found_all, _ = extract_all(RuleExtractor(), cases)
tally = defaultdict(Counter)
for case, found in zip(cases, found_all):
    sure = [f for f in found if f.predicate in PREDICATES and getattr(f, "sure", True)]
    right, wrong, _ = _compare(case.facts, sure, strict=False, objects="similar")
    for kind, facts in (("right", right), ("wrong", wrong)):
        for fact in facts:
            tally[fact.predicate][kind] += 1
print(json.dumps(tally))
"""


def score(commit: str, chats: tuple[str, ...], work: Path) -> dict[str, Counter[str]]:
    """Right and wrong written facts per predicate, by ``commit``'s code, on ``chats`` of dev."""
    tree = work / commit
    tree.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "graphmem"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    files = [str(DEV / f"{name}.jsonl") for name in chats]
    done = subprocess.run([sys.executable, "-c", _RUN, *files], cwd=tree, check=True, capture_output=True,
                          text=True, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"})
    return {predicate: Counter(counts) for predicate, counts in json.loads(done.stdout).items()}


def _precision(counts: Counter[str]) -> str:
    told = counts["right"] + counts["wrong"]
    return f"{counts['right'] / told:.2f}" if told else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="write the tallies here")
    args = parser.parse_args()
    pairs, by_predicate = {}, {}
    with tempfile.TemporaryDirectory() as work:
        for commit, chats in ARRIVALS:
            tally = score(commit, chats, Path(work))
            pair = sum(tally.values(), Counter())
            pairs[", ".join(chats)] = {"commit": commit, **pair}
            print(f"{', '.join(chats):10} {commit}  right {pair['right']:3}  wrong {pair['wrong']:3}  "
                  f"P {_precision(pair)}", flush=True)
            for predicate, counts in tally.items():
                by_predicate.setdefault(predicate, Counter()).update(counts)
    total = sum(by_predicate.values(), Counter())
    print(f"{'all':10} {'':7}  right {total['right']:3}  wrong {total['wrong']:3}  P {_precision(total)}")
    for predicate, counts in sorted(by_predicate.items(), key=lambda item: -sum(item[1].values())):
        print(f"  {predicate:14} right {counts['right']:3}  wrong {counts['wrong']:3}  P {_precision(counts)}")
    if args.json:
        args.json.write_text(json.dumps({"pairs": pairs, "predicates": by_predicate}, indent=1) + "\n")


if __name__ == "__main__":
    main()
