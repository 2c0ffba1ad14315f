"""A small, independent pure-Python model of the semantics (docs/semantics.md), for property tests.

It keeps only what is believed now, per (subject, predicate): for a ``one``
predicate a list of (start, end, object) pieces (adjacent pieces of the same
object coalesced); for ``many`` and ``event`` a list of (object, start, end).
Ends are ``None`` for open. It predicts which writes must be refused.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

INF = datetime.max.replace(tzinfo=UTC)


class Refused(Exception):
    """The model says the store must refuse this write."""


def _end(value):
    return INF if value is None else value


def _open(value):
    return None if value == INF else value


class Model:
    def __init__(self, kinds: dict[str, str]):
        self.kinds = kinds
        self.one: dict[tuple, list[tuple]] = {}   # (s, p) -> [(start, end, obj)] sorted, disjoint
        self.many: dict[tuple, list[tuple]] = {}  # (s, p) -> [(obj, start, end)]

    # -- one: a function from valid time to object -------------------------------------

    def _overwrite(self, key, start, end, obj):
        pieces = []
        for a, b, o in self.one.get(key, []):
            if b <= start or a >= end:
                pieces.append((a, b, o))
                continue
            if a < start:
                pieces.append((a, start, o))
            if b > end:
                pieces.append((end, b, o))
        if obj is not None:
            pieces.append((start, end, obj))
        self.one[key] = _coalesce(pieces)

    def add(self, s, p, o, start, end):
        kind = self.kinds.get(p, "many")
        if end is not None and end <= start:
            raise Refused("empty period")
        key = (s, p)
        if kind == "one":
            if end is None:  # up to the next value, or the end of this one's period, known after its start
                later = [a for a, _, _ in self.one.get(key, []) if a > start]
                later += [b for _, b, x in self.one.get(key, []) if x == o and start < b < INF]
                end = min(later) if later else None
            self._overwrite(key, start, _end(end), o)
        elif kind == "many":
            items = self.many.setdefault(key, [])
            if end is None:  # up to the end of this value's period known after its start
                ends = [i[2] for i in items if i[0] == o and start < i[2] < INF]
                end = min(ends) if ends else None
            same = [i for i in items if i[0] == o and i[1] < _end(end) and start < i[2]]
            lo = min([start] + [i[1] for i in same])
            hi = max([_end(end)] + [i[2] for i in same])
            for i in same:
                items.remove(i)
            items.append((o, lo, hi))
        else:
            # an event given no end lasts until its day's end (midnight UTC: the store's zone here)
            end = end or datetime.combine(start.date() + timedelta(days=1), datetime.min.time(), UTC)
            items = self.many.setdefault(key, [])
            if (o, start, end) not in items:
                items.append((o, start, end))

    def segment(self, s, p, o, start, end):
        if self.kinds.get(p, "many") != "one":
            raise Refused("segment needs a one predicate")
        if end <= start:
            raise Refused("empty period")
        self._overwrite((s, p), start, end, o)

    def end(self, s, p, o, at):
        key = (s, p)
        if self.kinds.get(p, "many") == "one":
            hits = [(a, b, x) for a, b, x in self.one.get(key, []) if a <= at < b and (o is None or x == o)]
            if not hits and len({x for a, b, x in self.one.get(key, []) if b == at and (o is None or x == o)}) == 1:
                return  # an end told again: nothing changes
            if not hits:
                raise Refused("nothing to end")
            (a, b, x), = hits
            if a == at:
                raise Refused("ends at its start")
            self._overwrite(key, at, b, None)
            return
        items = self.many.get(key, [])
        hits = [i for i in items if i[1] <= at < i[2] and (o is None or i[0] == o)]
        if not hits and self.kinds.get(p, "many") != "event" and len(
                {i[0] for i in items if i[2] == at and (o is None or i[0] == o)}) == 1:
            return  # an end told again: nothing changes (not an event's)
        if not hits:
            raise Refused("nothing to end")
        if o is None and len({i[0] for i in hits}) > 1:
            raise Refused("ambiguous")
        if any(i[1] == at for i in hits):
            raise Refused("ends at its start")
        for i in hits:
            items.remove(i)
            items.append((i[0], i[1], at))

    def retract(self, s, p, o, start, end):
        key = (s, p)
        if self.kinds.get(p, "many") == "one":
            self._overwrite(key, start, _end(end), None)
        else:
            self.many[key].remove((o, start, _end(end)))

    def redate(self, s, p, o, start, end, new_start, new_end):
        """The same value over the period it really held (``new_end`` None: the version's own end kept)."""
        kind = self.kinds.get(p, "many")
        if new_end is None:  # kept; an event moved keeps its length
            new_end = new_start + (end - start) if kind == "event" and end is not None else end
        if new_end is not None and new_end <= new_start:
            raise Refused("empty period")
        if (new_start, new_end) == (start, end):
            raise Refused("same period")
        self.retract(s, p, o, start, end)
        if kind == "one":
            self._overwrite((s, p), new_start, _end(new_end), o)
        else:
            self.add(s, p, o, new_start, new_end)

    def correct(self, s, p, o, start, end, new):
        if new == o:
            raise Refused("same value")
        self.retract(s, p, o, start, end)
        kind = self.kinds.get(p, "many")
        if kind == "one":
            self._overwrite((s, p), start, _end(end), new)
        else:
            self.add(s, p, new, start, end)

    # -- what it believes -----------------------------------------------------------------

    def state(self):
        """Believed facts now: one predicates as coalesced pieces, others as sorted lists."""
        ones = {k: [(a, _open(b), o) for a, b, o in v] for k, v in self.one.items() if v}
        manys = {k: sorted((o, a, _open(b)) for o, a, b in v) for k, v in self.many.items() if v}
        return ones, manys


def _coalesce(pieces):
    out = []
    for a, b, o in sorted(pieces):
        if out and out[-1][2] == o and out[-1][1] == a:
            out[-1] = (out[-1][0], b, o)
        else:
            out.append((a, b, o))
    return out


def store_state(versions, kinds):
    """The same shape as :meth:`Model.state`, computed from a store's believed versions."""
    ones, manys = {}, {}
    for v in versions:
        key = (v.subject, v.predicate)
        if kinds.get(v.predicate, "many") == "one":
            ones.setdefault(key, []).append((v.valid_from, _end(v.valid_to), v.object))
        else:
            manys.setdefault(key, []).append((v.object, v.valid_from, v.valid_to))
    ones = {k: [(a, _open(b), o) for a, b, o in _coalesce(v)] for k, v in ones.items()}
    return ones, {k: sorted(v) for k, v in manys.items()}
