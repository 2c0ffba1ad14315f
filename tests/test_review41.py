"""Review 41: attacks on the whole-store reads, entity_key's cache and alias suggest."""

from __future__ import annotations

import threading

from graphmem.core import collector


class _SteppedGC:
    """A stand-in for the ``gc`` module whose ``isenabled`` can hand the thread over to another
    between reading the flag and the caller acting on it (as the interpreter may, at any bytecode)."""

    def __init__(self) -> None:
        self.enabled = True
        self.between: threading.Event | None = None  # set when the reader is between its two calls
        self.resume: threading.Event | None = None

    def isenabled(self) -> bool:
        value = self.enabled
        if self.between is not None:
            self.between.set()
            self.resume.wait(0.5)  # another thread runs here
        return value

    def disable(self) -> None:
        self.enabled = False

    def enable(self) -> None:
        self.enabled = True


def test_two_threads_pausing_the_collector_never_leave_it_off(monkeypatch):
    """Thread A pauses the collector; thread B reads "off" as it enters, A leaves (switching it
    back on), then B switches it off and, having seen it off, never switches it back on: the
    process runs without the cyclic collector from then on."""
    fake = _SteppedGC()
    monkeypatch.setattr(collector, "gc", fake)
    a = collector.collector_paused()
    a.__enter__()
    fake.between, fake.resume = threading.Event(), threading.Event()

    def b() -> None:
        with collector.collector_paused():
            pass

    other = threading.Thread(target=b)
    other.start()
    assert fake.between.wait(5)
    fake.between = None
    leaving = threading.Thread(target=a.__exit__, args=(None, None, None))
    leaving.start()
    leaving.join(0.2)
    fake.resume.set()
    other.join(5)
    leaving.join(5)
    assert fake.enabled, "the cyclic collector was left off after both reads ended"
