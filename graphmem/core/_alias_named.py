"""A person first described, then named: "the walking man. his name is hemi", "the quiet girl is
called ines", "the radio guy has a name, it's tomas berg" (evidence for :mod:`graphmem.core.alias_evidence`).

A description is "the", one or two words, and a noun for a person ("guy", "man", "girl", "one");
the name is the longest name of the chat right after the first "his name is", "her name's",
"is called", "named" or "it's" that follows it. Only a description said in the same message as
the name, before it, with no other name between the description and that cue, counts.
"""

from __future__ import annotations

from collections.abc import Callable

from ._alias_chat import Chat

__all__ = ["evidence_described"]

#: Nouns that end a description of a person: "the walking man", "the bristol one".
_PERSON_HEADS = frozenset("guy man woman girl boy lady one bloke lad fella chap kid".split())

#: What a description is said to be called just before the name: "his name is", "is called", "named"
#: (not "called" alone: "the old man called jo" rang her).
_NAMING = (("name", "is"), ("name's",), ("is", "called"), ("was", "called"), ("named",), ("it's",))


def evidence_described(chat: Chat, add: Callable[[str, str, float, str, list[str]], None]) -> None:
    """Pair each described person with the name given to them in the same message."""
    starts: dict[tuple[int, int], list[str]] = {}  # (message, start) -> the names that begin there
    for key, spots in chat.mentions.items():
        for m, s, _ in spots:
            if s >= 0:
                starts.setdefault((m, s), []).append(key)
    for m, ts in enumerate(chat.tokens):
        keys = [t.whole for t in ts]
        for j, t in enumerate(ts):
            if t.key != "the":
                continue
            head = next((k for k in (j + 2, j + 3) if k < len(ts) and ts[k].key in _PERSON_HEADS
                         and not ts[j].end and all(not w.end and w.key != "the" for w in ts[j + 1:k])), None)
            if head is None:
                continue
            description = " ".join(w.key for w in ts[j:head + 1])
            for k in range(head + 1, len(ts)):
                cue = next((c for c in _NAMING if tuple(keys[k:k + len(c)]) == c), None)
                if cue is None:
                    continue
                start = k + len(cue)
                names = starts.get((m, start), [])
                between = {n for s in range(head + 1, k) for n in starts.get((m, s), [])
                           if n != "name"}  # "has a name, it's ..."
                if names and not between:
                    name = max(names, key=len)
                    add(description, name, 0.7, f"{description} is named {name}", [chat.messages[m].id])
                break
