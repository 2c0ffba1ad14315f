"""Episodes that record a tool call as its write's source, not something said.

An MCP write records its call as the source of what it writes (`add {"subject": …}`, `approve {"proposal_ids":
…} -> d31`). Such an episode is no message: search does not answer with it, and alias suggest reads no names in it.
"""

from __future__ import annotations

import json
import re

__all__ = ["CALL_TOOLS", "is_call_record"]

#: The MCP tools whose calls are recorded as their writes' sources (``graphmem.mcp``'s writes; a test keeps the two
#: alike).
CALL_TOOLS = frozenset(("add", "end", "correct", "retract", "alias", "approve", "reject"))
_CALL = re.compile(r"(?P<tool>[a-z]+) (?P<arguments>\{.*\})(?: -> d\d+(?:, d\d+)*)?", re.DOTALL)


def is_call_record(text: str) -> bool:
    """Whether an episode's text records a tool call as its write's source (MCP's `add {"subject": …}`, `approve
    {"proposal_ids": …} -> d31`): one of :data:`CALL_TOOLS`, then its arguments as a JSON object. Such an episode is
    not searched as a message (a new user's: "what's my dog called" showed a reject), where a message that only
    looks like one ("dog {Rex}", `settings {"dog": "Rex"}`: a reviewer's) still is."""
    m = _CALL.fullmatch(text)
    if m is None or m["tool"] not in CALL_TOOLS:
        return False
    try:
        return isinstance(json.loads(m["arguments"]), dict)
    except ValueError:
        return False
