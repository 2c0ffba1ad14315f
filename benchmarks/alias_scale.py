"""How `alias suggest` grows with a store's names: realistic first and last names, one message naming each.

    python -m benchmarks.alias_scale [--names 2000 5000 20000] [--seed 7]

Each round makes ``N`` distinct "First Last" names (first names from the nickname table the rules read, surnames
of three syllables drawn from 25), one message per name ("had lunch with Ada Morlinvas and bob today", by one of
two speakers), and runs :func:`graphmem.core.alias_evidence.suggest` over them, printing the pairs suggested and
the CPU seconds. Run it with another commit's code on ``PYTHONPATH`` (from outside the repository) to compare:
the answers must be the same, only the time may differ.
"""

from __future__ import annotations

import argparse
import random
import time


def names_and_messages(count: int, seed: int) -> tuple[list[str], list]:
    from graphmem.core.alias_evidence import Message, nickname_table

    rng = random.Random(seed)
    firsts = sorted(name for name in nickname_table()[0] if name.isalpha() and len(name) > 2)[:3000]
    syllables = ("an ber cas dor el fen gar hol is jan kov lin mor nak ol par quin ros sten tor ul vas wen yam "
                 "zel").split()
    surnames = sorted({"".join(rng.sample(syllables, 3)) for _ in range(6000)})
    names = sorted({f"{rng.choice(firsts).title()} {rng.choice(surnames).title()}" for _ in range(count)})
    messages = [Message(f"m{i}", rng.choice(["Ana", "Bo"]),
                        f"had lunch with {names[i % len(names)]} and {rng.choice(firsts)} today")
                for i in range(count)]
    return names, messages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--names", type=int, nargs="+", default=[2000, 5000, 20000], help="store sizes, in names")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    from graphmem.core.alias_evidence import suggest

    for count in args.names:
        names, messages = names_and_messages(count, args.seed)
        started = time.process_time()
        found = suggest(messages, names)
        print(f"{len(names):>7} names  {len(found):>5} pairs  {time.process_time() - started:7.1f} CPU-s", flush=True)


if __name__ == "__main__":
    main()
