"""python -m benchmarks run | worker | report | generate (see BENCHMARKS.md)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from .runner import DEFAULT_DATA, RESULTS, SYSTEMS, prepare, run, work


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("run", help="generate the data, check every answer, time every system")
    p.add_argument("--scale", default="10k", help="tiny, 10k, 100k, 1m, 10m or a number of versions")
    p.add_argument("--engine", default="kuzu", choices=("kuzu", "ladybug", "both"))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--repeat", type=int, default=5, help="timed runs of each query")
    p.add_argument("--load-repeat", type=int, default=3, help="timed imports of the log (W2)")
    p.add_argument("--systems", default=",".join(SYSTEMS), help="comma-separated subset")
    p.add_argument("--data", type=Path, default=DEFAULT_DATA, help="where generated logs are kept")
    p.add_argument("--out", type=Path, default=None, help="results JSON (default benchmarks/results/)")
    p.add_argument("--queries", default="", help="comma-separated subset of the reads and W1 (W2, "
                   "the load, always runs); default all")

    w = sub.add_parser("worker", help="(internal) run one system in this process")
    w.add_argument("--system", required=True)
    w.add_argument("--engine")
    w.add_argument("--data", type=Path, required=True)
    w.add_argument("--repeat", type=int, default=5)
    w.add_argument("--load-repeat", type=int, default=3)
    w.add_argument("--workdir", type=Path, required=True)
    w.add_argument("--out", type=Path, required=True)
    w.add_argument("--queries", default="")

    r = sub.add_parser("report", help="write BENCHMARKS.md from the saved results")
    r.add_argument("--results", type=Path, default=RESULTS)
    r.add_argument("--out", type=Path, default=Path("BENCHMARKS.md"))

    g = sub.add_parser("generate", help="only generate a log (and its parameters) for a scale")
    g.add_argument("--scale", default="10k")
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--data", type=Path, default=DEFAULT_DATA)

    args = parser.parse_args(argv)
    if args.command == "run":
        engines = ["kuzu", "ladybug"] if args.engine == "both" else [args.engine]
        command = "python -m benchmarks " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
        run(args.scale, engines, seed=args.seed, repeat=args.repeat, load_repeat=args.load_repeat,
            systems=tuple(s for s in args.systems.split(",") if s), data_root=args.data, out=args.out,
            command=command, queries=_names(args.queries))
    elif args.command == "worker":
        result = work(args.system, args.engine, args.data, args.repeat, args.load_repeat, args.workdir,
                      queries=_names(args.queries))
        args.out.write_text(json.dumps(result))
    elif args.command == "report":
        from .report import write_report

        write_report(args.results, args.out)
        print(f"wrote {args.out}")
    elif args.command == "generate":
        print(prepare(args.scale, args.seed, args.data))
    return 0


def _names(text: str) -> tuple[str, ...] | None:
    return tuple(n for n in text.split(",") if n) or None


if __name__ == "__main__":
    raise SystemExit(main())
