"""First reads: how precise each kind of fact was, read by the code of the day on chats it had not seen.

    python -m benchmarks.first_reads [--json OUT] [--code DIR --chats h15,h16,...]

Every chat of the evaluation sets that has per-message fact labels (``NAME.facts.jsonl``) reached
the repository in a commit of its own, written by someone who had not read the code. The code of
the commit before it (its parent) had never seen that chat: what it read there is a *first read*,
as unshaped as a held-out score. This script finds each chat's arrival in ``git log``, extracts the
code of the day with ``git archive`` into a temporary directory, runs that code's rules extractor
over the chats that arrived together (in a subprocess whose imports are that code's), and scores
what it proposed with today's scorer and today's labels.

The table then says, per predicate and per kind of subject (the speaker, the other participant,
someone else), how often what was proposed was right. A rule that is right less often than the
bar on first reads is one whose facts should wait for review, however well it reads the chats it
was tuned on (docs/ingest.md, "The eighth pass").

``--code DIR --chats …`` reads the named chats with the code in ``DIR`` instead (for instance the
session's code on chats it was never tuned on).

``--aliases`` does the same for ``alias suggest`` over the aliases set's dev chats: each chat is
replayed into a scratch store by the code of its day (``ingest --replay --approve``), its suggestions
scored against today's pair labels, per kind of reason (a pair joined only through others, a short
form, a surname, …).

Needs the repository's history (a full clone) and the ``nicknames`` and ``rapidfuzz`` packages the
extractor of every day used.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from graphmem.evaluation import PREDICATES, ExtractionCase, _compare, read_conversation_set
from graphmem.extract import ExtractedFact

ROOT = Path(__file__).resolve().parent.parent
SETS = (ROOT / "tests" / "data" / "conversations", ROOT / "tests" / "data" / "aliases")

#: Run under the code of the day (its ``graphmem`` first on the path): its rules extractor over the messages
#: given on stdin (JSON: id, text, at, speaker, other, previous), in order, with what of them its ``extract``
#: takes; every fact it proposes as a JSON line. Only ``RuleExtractor`` and ``extract`` are asked of it: the
#: code of every day has them (reading and scoring are today's).
_DUMP = """
import inspect, json, sys
from datetime import datetime
from graphmem.extract import RuleExtractor
try:
    from graphmem.extract import Turn
except ImportError:
    Turn = None
extractor = RuleExtractor()
takes = inspect.signature(extractor.extract).parameters
for message in json.load(sys.stdin):
    asked = {"reference_time": datetime.fromisoformat(message["at"]), "speaker": message["speaker"]}
    if "other" in takes:
        asked["other"] = message["other"]
    if "previous" in takes and Turn is not None and message["previous"]:
        asked["previous"] = Turn(**message["previous"])
    for fact in extractor.extract(message["text"], **asked):
        row = json.loads(fact.model_dump_json())
        row["message"] = message["id"]
        print(json.dumps(row))
"""
#: Run under the code of the day: each chat file given replayed into a scratch store as a user would, and
#: the store's alias suggestions as JSON lines (its reasons included).
_DUMP_ALIASES = """
import json, sys, tempfile
from pathlib import Path
from graphmem import Store
from graphmem.ingest import ingest, read_messages
for path in sys.argv[1:]:
    with tempfile.TemporaryDirectory() as work:
        try:
            store = Store(Path(work) / "store", allow_future=True)
        except TypeError:
            store = Store(Path(work) / "store")
        with store:
            ingest(store, read_messages(Path(path), tz=store.tz), replay=True, approve=True)
            for s in store.alias_suggestions():
                print(json.dumps({"chat": Path(path).stem, "a": s.a, "b": s.b, "score": s.score,
                                  "reasons": list(s.reasons)}))
"""
#: A suggestion's kind, from the first words its reasons share: checked in order.
_REASONS = (("joined only through others", "one entity through"), ("corrected", "corrected to"),
            ("one person's two names in one message", "both given as one"),
            ("more of the name", "with more of the name"),
            ("a title", "with a title"), ("a surname", "is the surname of"), ("initials", "initials of"),
            ("a nickname", "is a nickname of"), ("a pet form", "pet form"), ("a short form", "short form"),
            ("spelt two ways", "spelt two ways|spelt another way|differ by one letter"),
            ("the other speaker's name for them", "used for .* only by the other|the other speaker calls"))
#: How long one day's code may read its chats (a few seconds each here).
TIMEOUT = 600


def paired_chats() -> dict[str, Path]:
    """Every dev chat of the aliases set with pair labels: name -> its messages."""
    return {p.name.removesuffix(".pairs.jsonl"): p.with_name(p.name.removesuffix(".pairs.jsonl") + ".jsonl")
            for p in sorted((SETS[1] / "dev").glob("*.pairs.jsonl"))}


def labelled_chats() -> dict[str, Path]:
    """Every dev chat with per-message fact labels: name -> its messages (never a held-out one: its
    first reads would be as unshaped, but tuning on them would shape the held-out part)."""
    chats = {}
    for root in SETS:
        for facts in sorted(root.glob("dev/*.facts.jsonl")):
            chats[facts.name.removesuffix(".facts.jsonl")] = facts.with_name(
                facts.name.removesuffix(".facts.jsonl") + ".jsonl")
    return chats


def arrivals(chats: dict[str, Path]) -> dict[str, list[str]]:
    """The commit each chat's code of the day is (the parent of the commit that added its messages,
    wherever they were then), with the chats that arrived together."""
    groups: dict[str, list[str]] = collections.defaultdict(list)
    for name, path in chats.items():
        places = [str(p.relative_to(ROOT)) for p in (path.parent.parent / part / path.name
                                                     for part in ("dev", "heldout"))]
        log = subprocess.run(["git", "log", "--diff-filter=A", "--format=%H", "--", *places], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split()
        if not log:
            continue  # not committed yet
        parent = subprocess.run(["git", "rev-parse", "--short", log[-1] + "^"], cwd=ROOT, capture_output=True,
                                text=True).stdout.strip()
        if parent:  # (a chat of the first commit has no code of the day)
            groups[parent].append(name)
    return dict(groups)


def run_as_of(code: Path, script: str, *args: str, stdin: str | None = None) -> list[dict]:
    """``script``'s JSON lines, run by the code in ``code`` in a process of its own (its ``graphmem``
    first on the path)."""
    try:
        done = subprocess.run([sys.executable, "-c", script, *args], cwd=code, input=stdin, capture_output=True,
                              text=True, timeout=TIMEOUT,
                              env={"PYTHONPATH": str(code), "PATH": "/usr/bin:/bin", "HOME": str(Path.home())})
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"still reading after {TIMEOUT} s") from None
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip() or f"exit {done.returncode}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def read_with(code: Path, paths: Iterable[Path]) -> list[dict]:
    """What the code in ``code`` proposes for each message of ``paths``."""
    messages = [{"id": case.id, "text": case.text, "at": case.chat_time.isoformat(), "speaker": case.speaker,
                 "other": case.other,
                 "previous": {"speaker": case.previous.speaker, "text": case.previous.text} if case.previous else None}
                for path in paths for case in read_conversation_set(path)]
    return run_as_of(code, _DUMP, stdin=json.dumps(messages))


def suggest_with(code: Path, paths: Iterable[Path]) -> list[dict]:
    """The alias suggestions the code in ``code`` makes for each chat of ``paths``."""
    return run_as_of(code, _DUMP_ALIASES, *map(str, paths))


def reason_kind(reasons: list[str]) -> str:
    """What kind of evidence a suggestion rests on: the first kind of :data:`_REASONS` any reason is."""
    for kind, words in _REASONS:
        if any(re.search(words, reason) for reason in reasons):
            return kind
    return "other"


def score_pairs(found: list[dict], code: str) -> list[dict]:
    """One row per suggestion: right when today's labels say its two names are one."""
    from graphmem.evaluation_aliases import _same_pairs

    same: dict[str, set[frozenset[str]]] = {}
    rows = []
    for s in found:
        if s["chat"] not in same:
            same[s["chat"]] = _same_pairs(SETS[1] / "dev" / f"{s['chat']}.pairs.jsonl")
        rows.append({"code": code, "chat": s["chat"], "a": s["a"], "b": s["b"], "score": s["score"],
                     "kind": reason_kind(s["reasons"]),
                     "right": frozenset((s["a"].lower(), s["b"].lower())) in same[s["chat"]]})
    return rows


def pair_table(rows: list[dict]) -> str:
    """Right of suggested, per kind of reason."""
    kinds: dict[str, list[dict]] = collections.defaultdict(list)
    for row in rows:
        kinds[row["kind"]].append(row)
        kinds["all"].append(row)
    lines = [f"{'':40} {'suggested':>16}"]
    for kind in sorted(kinds, key=lambda k: (k == "all", -len(kinds[k]))):
        right = sum(r["right"] for r in kinds[kind])
        lines.append(f"{kind:40} {right:4} of {len(kinds[kind]):4} {right / len(kinds[kind]):.2f}")
    return "\n".join(lines)


def archived(commit: str, into: Path) -> Path:
    """The tree of ``commit``, extracted into ``into``."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", commit], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def who(fact: ExtractedFact, case: ExtractionCase) -> str:
    return "speaker" if fact.subject == case.speaker else "other" if fact.subject == case.other else "someone else"


def score(rows: list[dict], chats: dict[str, Path], code: str) -> list[dict]:
    """One row per proposed fact of the scored vocabulary: right or not against today's labels."""
    by_message: dict[str, list[dict]] = collections.defaultdict(list)
    for row in rows:
        by_message[row["message"]].append(row)
    scored = []
    names = sorted({row["message"].rsplit("-", 1)[0] for row in rows})
    for name in names:
        for case in read_conversation_set(chats[name]):
            found = [(ExtractedFact(**{k: row[k] for k in ("op", "subject", "predicate", "object", "valid_from",
                                                           "valid_to", "quote") if k in row}), row)
                     for row in by_message.get(case.id, [])]
            found = [(fact, row) for fact, row in found if fact.predicate in PREDICATES]
            if not found:
                continue
            right, _, _ = _compare(case.facts, [fact for fact, _ in found], strict=False, objects="similar")
            written = [fact for fact, row in found if row.get("sure", True)]  # a day before review: all
            right_written, _, _ = _compare(case.facts, written, strict=False, objects="similar")
            scored.extend({"code": code, "chat": name, "message": case.id, "predicate": fact.predicate,
                           "op": fact.op, "subject": who(fact, case), "written": row.get("sure", True),
                           "right": id(fact) in {id(f) for f in right},
                           "right_written": id(fact) in {id(f) for f in right_written},
                           "object": fact.object} for fact, row in found)
    return scored


def table(rows: list[dict]) -> str:
    """Right of proposed, and of what ``--approve`` wrote, per predicate and per subject kind."""
    lines = [f"{'':34} {'proposed':>14} {'written':>14}"]
    keys: dict[tuple[str, str], list[dict]] = collections.defaultdict(list)
    for row in rows:
        keys[(row["predicate"], "")].append(row)
        keys[("", row["subject"])].append(row)
        keys[("all", "")].append(row)

    def cell(some: list[dict], key: str) -> str:
        right = sum(r[key] for r in some)
        return f"{right:4} of {len(some):4} {right / len(some):.2f}" if some else f"{'-':>14}"

    for key in sorted(keys, key=lambda k: (k == ("all", ""), k[0] == "", k)):
        some = keys[key]
        label = key[0] if key[0] else f"subject: {key[1]}"
        lines.append(f"{label:34} {cell(some, 'right'):>14} "
                     f"{cell([r for r in some if r['written']], 'right_written'):>14}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", type=Path, help="write every scored fact here")
    parser.add_argument("--code", type=Path, help="read --chats with the code in this directory instead")
    parser.add_argument("--chats", help="comma-separated dev chat names, with --code (default: every one)")
    parser.add_argument("--aliases", action="store_true", help="alias suggest's first reads instead of the facts'")
    args = parser.parse_args(argv)
    chats = paired_chats() if args.aliases else labelled_chats()
    read, scored, shown = (suggest_with, score_pairs, pair_table) if args.aliases else (
        read_with, lambda found, code: score(found, chats, code), table)
    if args.chats and not args.code:
        parser.error("--chats goes with --code (without it, every chat is read by the code of its day)")
    rows: list[dict] = []
    unread: list[str] = []
    if args.code:
        names = args.chats.split(",") if args.chats else sorted(chats)
        if unknown := [n for n in names if n not in chats]:
            parser.error(f"no dev chat with those labels is called {', '.join(unknown)}")
        rows = scored(read(args.code.resolve(), [chats[n] for n in names]), str(args.code))
    else:
        with tempfile.TemporaryDirectory(prefix="graphmem-first-reads-") as work:
            for commit, names in sorted(arrivals(chats).items(), key=lambda kv: sorted(kv[1])):
                try:
                    found = read(archived(commit, Path(work) / commit), [chats[n] for n in sorted(names)])
                except (RuntimeError, subprocess.CalledProcessError) as exc:
                    print(f"{commit} ({', '.join(sorted(names))}): not read:\n{exc}", file=sys.stderr)
                    unread.extend(names)
                    continue
                print(f"{commit}: {', '.join(sorted(names))}: {len(found)} proposed", file=sys.stderr)
                rows.extend(scored(found, commit))
    print(shown(rows) if rows else "nothing read")
    if unread:
        print(f"not read (their day's code failed, above): {', '.join(sorted(unread))}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0 if rows else 1


if __name__ == "__main__":
    raise SystemExit(main())
