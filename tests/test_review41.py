"""Review 41: attacks on the whole-store reads, entity_key's cache and alias suggest."""

from __future__ import annotations

import threading

import pytest

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


@pytest.mark.engine_free  # a name's key, no store
def test_looking_up_long_names_keeps_none_of_them():
    """entity_key's cache holds each text it was asked, up to 65,536 of them: a name padded with
    zero-width spaces (its key a few characters, so not refused) is kept whole, and a reader
    asking about such names (``store.entity``, ``beliefs(about=...)``: no write) grows the
    process by their size, for good."""
    import tracemalloc

    from graphmem.core.names import entity_key

    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(20):
            assert entity_key(f"Ivan {i}" + "\u200b" * 50_000) == f"ivan {i}"
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held < 500_000, f"{held:,} bytes kept after looking up 20 long names"


def test_an_interjection_after_oh_is_not_a_short_name():
    """docs/aliases.md: a short form needs both names plainly names, "not 'well' of Wellington".
    "oh" counts as a greeting opening a message, so the word after it ("oh well", "oh god",
    "oh boy") is taken for a name and paired with a place or person it begins."""
    from graphmem.core.alias_evidence import Message, suggest

    for word, name in [("well", "Wellington"), ("god", "Godfrey"), ("boy", "Boyd")]:
        chat = [Message("e0", "Ann", f"I moved to {name} last year"), Message("e1", "Bea", f"Oh {word}, that's far")]
        assert [(p.a, p.b) for p in suggest(chat)] == [], word


def test_an_unhashable_text_is_keyed_like_any_other():
    """entity_key's cache hashes the text: a str subclass that is not hashable passes the type
    check and then fails with the cache's TypeError instead of being keyed (before the cache it
    was keyed)."""
    from graphmem.core.names import entity_key

    class Text(str):
        __hash__ = None  # type: ignore[assignment]

    assert entity_key(Text("Ｉvan")) == "ivan"
