"""The choices of message search, measured on a part of the conversation set (dev, never held-out).

For each variant — the speaker's name among a message's words or not, the weight of the turn
before (0, 0.3, 0.6), and which facts join the messages (none, all, those matching more than the
entity named) — replays the conversations and prints evidence recall@5 beside BM25 over the raw
messages (see :mod:`graphmem.recall.conversations`):

    python -m benchmarks.recall_sweep tests/data/conversations/dev

It changes module constants for the run only; the shipped values are the ones docs/recall.md
reports. Run it on dev only: the held-out part is scored, never tuned on.
"""

from __future__ import annotations

import sys

import graphmem.recall._answers as answers
import graphmem.recall._messages as messages
from graphmem.recall.conversations import evaluate, find


def main(paths: list[str]) -> None:
    conversations = [c for c in find(paths)]
    shipped = (messages.CONTEXT_WEIGHT, messages.document, answers.fuse)
    try:
        for facts in ("none", "all", "matched"):
            for context in (0.0, 0.3, 0.6):
                for names in (True, False):
                    messages.CONTEXT_WEIGHT = context
                    messages.document = shipped[1] if names else (lambda actor, text: messages.terms(text))
                    answers.fuse = _fusing(facts, shipped[2])
                    report = evaluate(conversations)
                    figures = "  ".join(f"{part}: {report.recall(part)['graphmem']:.3f} (BM25 "
                                        f"{report.recall(part)['bm25']:.3f})" for part in report.parts)
                    print(f"facts={facts:<8} context={context:<4} speaker names={names!s:<5}  {figures}", flush=True)
    finally:
        messages.CONTEXT_WEIGHT, messages.document, answers.fuse = shipped


def _fusing(facts: str, fuse):
    def fused(found, said, *, when, limit):
        if facts == "none":
            found = []
        elif facts == "all":  # every fact hit fused by rank, those matched by the entity alone too
            found = [h if h.matched.words else h.model_copy(
                update={"matched": h.matched.model_copy(update={"words": ["(any)"]})}) for h in found]
        return fuse(found, said, when=when, limit=limit)
    return fused


if __name__ == "__main__":
    main(sys.argv[1:] or ["tests/data/conversations/dev"])
