"""The rules extractor on hostile messages: one verb phrase repeated up to the per-sentence limit.

    python -m benchmarks.extract_hostile

For each of thirteen phrases, a sentence of ~990 characters holding as many of the phrase as
``MOST_PHRASES`` lets be read, fifty times over (~50 KB in one message), read by
``RuleExtractor.extract``; prints the CPU seconds of each. A message of no phrase at all is the
floor (the sentence splitter, the time phrases).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

from graphmem.extract import RuleExtractor
from graphmem.extract._rules import MOST_PHRASES
from graphmem.extract._verbs import verbs_for

PHRASES = ("my ", "we went to ", "I like ", "my dog ", "my flat in Leeds, ", "I started ", "she joined ",
           "got a ", "i bought a car ", "Mel lives in Paris and ", "love ", "our ", "I'm a ")


def offered(sentence: str) -> int:
    """How many verb phrases a sentence offers the rules."""
    return sum(1 for _, verb in verbs_for(sentence) for _ in verb.head.finditer(sentence))


def main() -> None:
    extractor = RuleExtractor()
    for phrase in PHRASES:
        k = 1
        while offered(phrase * (k + 1)) <= MOST_PHRASES and len(phrase * (k + 1)) < 950:
            k += 1
        sentence = phrase * k + "ok " * ((990 - len(phrase * k)) // 3)
        text = (sentence + ". ") * 50
        began = time.process_time()
        extractor.extract(text, reference_time=datetime(2025, 6, 10, 12, tzinfo=UTC),
                          speaker="Al", other="Bea")
        print(f"{phrase!r:28} x{k:<4} {offered(sentence):3} phrases  {time.process_time() - began:.2f} CPU-s"
              f"  ({len(text):,} characters)")


if __name__ == "__main__":
    main()
