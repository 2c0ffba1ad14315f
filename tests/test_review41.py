"""Review 41: attacks on the whole-store reads, entity_key's cache and alias suggest."""

from __future__ import annotations

import threading

from graphmem.core import collector


class _SteppedGC:
    """A stand-in for the ``gc`` module that hands the thread over to another at the first call
    made from thread ``stepped`` (after reading the flag, before switching it), as the
    interpreter may at any bytecode."""

    def __init__(self) -> None:
        self.enabled = True
        self.stepped: threading.Thread | None = None
        self.between = threading.Event()  # set when the stepped thread stands at its first call
        self.resume = threading.Event()

    def _step(self) -> None:
        if threading.current_thread() is self.stepped and not self.between.is_set():
            self.between.set()
            self.resume.wait(0.5)  # another thread runs here

    def isenabled(self) -> bool:
        value = self.enabled
        self._step()
        return value

    def disable(self) -> None:
        self._step()
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

    def b() -> None:
        with collector.collector_paused():
            pass

    other = fake.stepped = threading.Thread(target=b)
    other.start()
    assert fake.between.wait(5)
    leaving = threading.Thread(target=a.__exit__, args=(None, None, None))
    leaving.start()
    leaving.join(0.2)
    fake.resume.set()
    other.join(5)
    leaving.join(5)
    assert fake.enabled, "the cyclic collector was left off after both reads ended"
