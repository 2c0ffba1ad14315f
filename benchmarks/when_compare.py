"""graphmem's time-phrase resolver beside dateparser, parsedatetime and ctparse, in one run.

    python -m benchmarks.when_compare [FILE ...] [--json OUT]

Every system reads the same labelled phrases (default: tests/data/when/dev.jsonl) against the
same reference times, and is scored on the period it gives (start and end, half-open, UTC):

- *own*: the period the system itself names. A library that answers with a point and a
  granularity (dateparser's ``period``, parsedatetime's accuracy, ctparse's filled fields) gets
  that calendar unit around its point; an interval is taken as it is.
- *told*: the library's point (or interval) widened to the *labelled* granularity, a generous
  reading that hands each library the one thing it cannot express (a weekend, a season, a
  quarter, a decade); a range needs an interval whose first day and last day or month match.

graphmem reads the whole sentence and must find the phrase in it (its tense decides "on
Friday"); the libraries are handed the phrase alone, which helps them. graphmem is scored the
same two ways. Needs the ``bench`` extra (``pip install -e ".[bench]"``).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
import warnings
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from dateutil.relativedelta import relativedelta

from graphmem.evaluation import GRANULARITIES, WhenCase, read_when_set, resolve_with_graphmem
from graphmem.when._calendar import Period, day_period, decade, month, quarter, season, week, weekend

DEFAULT = Path(__file__).resolve().parent.parent / "tests" / "data" / "when" / "dev.jsonl"
_LEADS = ("over ", "on ", "in ", "during ", "at ")

#: An answer: (start, end) naive UTC for an interval; (point, None, granularity) for a point.
Answer = tuple[datetime, datetime | None, str | None] | None


def _naive(moment: datetime) -> datetime:
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment


def _strip(phrase: str) -> str:
    lower = phrase.lower()
    return next((phrase[len(lead):] for lead in _LEADS if lower.startswith(lead)), phrase)


# --- widening a point to a calendar unit ------------------------------------------------------

def widen(point: datetime, granularity: str) -> Period | None:
    """The calendar unit of ``granularity`` that holds ``point``."""
    day = point.date()
    if granularity == "instant":
        start = point.replace(second=0, microsecond=0)
        return Period(start, start + timedelta(minutes=1), "instant")
    if granularity == "day":
        return day_period(day)
    if granularity == "week":
        return week(day)
    if granularity == "weekend":
        if day.weekday() < 5:
            return None
        return weekend(day - timedelta(days=day.weekday() - 5))
    if granularity == "month":
        return month(day.year, day.month)
    if granularity == "season":
        first = {12: 12, 1: 12, 2: 12}.get(day.month, (day.month - 3) // 3 * 3 + 3)
        year = day.year - 1 if day.month in (1, 2) else day.year
        return season({3: "spring", 6: "summer", 9: "autumn", 12: "winter"}[first], year)
    if granularity == "quarter":
        return quarter(day.year, (day.month - 1) // 3 + 1)
    if granularity == "year":
        return Period(datetime(day.year, 1, 1), datetime(day.year + 1, 1, 1), "year")
    if granularity == "decade":
        return decade(day.year // 10 * 10)
    return None


def _range_matches(start: datetime, last: datetime, case: WhenCase) -> bool:
    """An interval [start, last] names the labelled range if it starts on its first day and
    its last moment falls on the range's last day, or in its last month."""
    gold_start, gold_end = _naive(case.start), _naive(case.end) if case.end else None
    if gold_end is None or start.date() != gold_start.date():
        return False
    final = gold_end - timedelta(microseconds=1)
    return last.date() == final.date() or last.date() == gold_end.date() or (
        (last.year, last.month) == (final.year, final.month))


def period_of(answer: Answer, case: WhenCase, *, told: bool) -> tuple[datetime, datetime | None] | None:
    """The period an answer names, by its own granularity or (``told``) by the labelled one."""
    if answer is None:
        return None
    first, second, granularity = answer
    gold_end = _naive(case.end) if case.end else None
    if case.end is None:  # an open period: only its start can be compared
        unit = widen(first, case.granularity if told else (granularity or "day"))
        return (unit.start, None) if unit else None
    if second is not None and granularity in (None, "range"):  # an interval
        if told and case.granularity == "range":
            return (_naive(case.start), gold_end) if _range_matches(first, second, case) else (
                first, second)
        return first, second
    unit = widen(first, case.granularity if told else (granularity or "day"))
    return (unit.start, unit.end) if unit else None


# --- the systems ------------------------------------------------------------------------------

def graphmem_answer(case: WhenCase) -> Answer:
    found = resolve_with_graphmem(case)
    if found is None:
        return None
    start, end, granularity = found
    start, end = _naive(start), _naive(end) if end else None
    if end is None:
        return start, None, granularity
    return start, end, "range" if granularity == "range" else granularity


def dateparser_answer(prefer: str) -> Callable[[WhenCase], Answer]:
    from dateparser.date import DateDataParser

    def answer(case: WhenCase) -> Answer:
        parser = DateDataParser(languages=["en"], settings={
            "RELATIVE_BASE": _naive(case.reference), "PREFER_DATES_FROM": prefer,
            "RETURN_AS_TIMEZONE_AWARE": False})
        for text in dict.fromkeys((case.phrase, _strip(case.phrase))):
            data = parser.get_date_data(text)
            if data and data.date_obj:
                unit = {"time": "instant"}.get(data.period, data.period)
                return data.date_obj, None, unit
        return None
    return answer


_PDT_UNITS = ((32, "instant"), (8, "day"), (4, "week"), (2, "month"), (1, "year"))


def parsedatetime_answer(case: WhenCase) -> Answer:
    import parsedatetime

    calendar = parsedatetime.Calendar(version=parsedatetime.VERSION_CONTEXT_STYLE)
    reference = _naive(case.reference)
    lower = case.phrase.lower()
    if any(word in f" {lower} " for word in (" from ", " between ", " to ", " until ", "-")):
        start, end, flag = calendar.evalRanges(case.phrase, reference.timetuple())
        if flag:
            return datetime(*start[:6]), datetime(*end[:6]), "range"
    for text in dict.fromkeys((case.phrase, _strip(case.phrase))):
        moment, context = calendar.parseDT(text, sourceTime=reference)
        if context.hasDateOrTime:
            unit = next((name for flag, name in _PDT_UNITS if context.accuracy & flag), "day")
            return moment, None, unit
    return None


def _ctparse_time(time_, reference: datetime) -> tuple[datetime, str] | None:
    if time_ is None or not hasattr(time_, "month") or (time_.month is None and time_.year is None and time_.day is None
                         and time_.hour is None):
        return None
    year, month_ = time_.year or reference.year, time_.month or 1
    if time_.day is None:
        return datetime(year, month_, 1), "month" if time_.month else "year"
    moment = datetime(year, month_, time_.day, time_.hour or 0, time_.minute or 0)
    return moment, "instant" if time_.hour is not None else "day"


def ctparse_answer(case: WhenCase) -> Answer:
    import ctparse

    logging.getLogger("ctparse").setLevel(logging.CRITICAL)  # it logs every phrase it misses
    reference = _naive(case.reference)
    for text in dict.fromkeys((case.phrase, _strip(case.phrase))):
        try:
            result = ctparse.ctparse(text, ts=reference, timeout=2)
        except Exception:  # noqa: BLE001 - a library failure is a miss, not a crash
            result = None
        if result is None:
            continue
        resolution = result.resolution
        if type(resolution).__name__ == "Interval":
            first = _ctparse_time(resolution.t_from, reference)
            last = _ctparse_time(resolution.t_to, reference)
            if first and last:
                end = last[0] + (relativedelta(months=1) - timedelta(microseconds=1)
                                 if last[1] == "month" else timedelta(0))
                return first[0], end, "range"
            continue
        found = _ctparse_time(resolution, reference)
        if found:
            return found[0], None, found[1]
    return None


SYSTEMS: dict[str, Callable[[WhenCase], Answer]] = {
    "graphmem": graphmem_answer,
    "dateparser (prefer past)": dateparser_answer("past"),
    "dateparser (default)": dateparser_answer("current_period"),
    "parsedatetime": parsedatetime_answer,
    "ctparse": ctparse_answer,
}


# --- running ----------------------------------------------------------------------------------

def run(cases: list[WhenCase]) -> dict:
    """Score every system on ``cases``: accuracy (own and told), answered, seconds."""
    results = {}
    for name, system in SYSTEMS.items():
        started = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            answers = [system(case) for case in cases]
        seconds = time.perf_counter() - started
        row = {"answered": sum(a is not None for a in answers), "seconds": round(seconds, 3),
               "own": {}, "told": {}}
        for mode in ("own", "told"):
            right = {}
            for case, answer in zip(cases, answers):
                got = period_of(answer, case, told=mode == "told")
                expected = (_naive(case.start), _naive(case.end) if case.end else None)
                right.setdefault(case.granularity, []).append(got == expected)
            row[mode] = {g: [sum(v), len(v)] for g, v in right.items()}
            row[mode]["overall"] = [sum(sum(v) for v in right.values()), len(cases)]
        results[name] = row
    return results


def _pct(pair: list[int]) -> str:
    right, total = pair
    return f"{100 * right / total:5.1f}%" if total else "    -"


def report(results: dict, cases: list[WhenCase]) -> str:
    kinds = [g for g in GRANULARITIES if any(c.granularity == g for c in cases)]
    lines = [f"{len(cases)} labelled phrases", "",
             f"{'system':<26} {'own':>7} {'told':>7} {'answered':>9} {'seconds':>8}"]
    for name, row in results.items():
        lines.append(f"{name:<26} {_pct(row['own']['overall']):>7} "
                     f"{_pct(row['told']['overall']):>7} {row['answered']:>9} "
                     f"{row['seconds']:>8.2f}")
    libraries = {n: r for n, r in results.items() if n != "graphmem"}
    best = max(libraries, key=lambda n: max(libraries[n][m]["overall"][0] for m in ("own", "told")))
    ours = results["graphmem"]["own"]["overall"][0]
    theirs = max(libraries[best][m]["overall"][0] for m in ("own", "told"))
    lines += ["", f"graphmem (own) minus the best library ({best}, its better mode): "
                  f"{100 * (ours - theirs) / len(cases):+.1f} points", "",
              "per granularity (own / told):",
              f"{'granularity':<12} " + " ".join(f"{n[:16]:>17}" for n in results)]
    for kind in kinds:
        cells = [f"{_pct(r['own'][kind])}/{_pct(r['told'][kind])}" for r in results.values()]
        total = results["graphmem"]["own"][kind][1]
        lines.append(f"{kind + f' ({total})':<12} " + " ".join(f"{c:>17}" for c in cells))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", default=[str(DEFAULT)], help="time-phrase sets")
    parser.add_argument("--json", dest="out", help="also write the results to this JSON file")
    args = parser.parse_args(argv)
    try:
        import ctparse  # noqa: F401
        import dateparser  # noqa: F401
        import parsedatetime  # noqa: F401
    except ImportError as exc:
        print(f"error: {exc.name} is missing; install the bench extra: pip install -e '.[bench]'",
              file=sys.stderr)
        return 1
    cases = read_when_set(*args.files)
    results = run(cases)
    print(report(results, cases))
    if args.out:
        Path(args.out).write_text(json.dumps(
            {"files": args.files, "cases": len(cases), "results": results}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
