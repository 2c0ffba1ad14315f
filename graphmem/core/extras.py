"""The optional parts of graphmem and the extras that install them: one way to say which is missing.

A front end that needs an extra imports it inside :func:`needs_extra`; a module that is not
there, the extra's own or one it depends on, becomes one line naming the extra and the command
that installs it, instead of an unexpected ModuleNotFoundError. A missing module of graphmem
itself is a broken install, not a missing extra, and is raised as it is.

Internal: the command line, the explorer and the Spark questions import their extras with it.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from contextlib import contextmanager

from ..errors import GraphmemError, MissingExtra

__all__ = ["EXTRAS", "install_hint", "needs_extra"]

#: Each extra (pyproject.toml's optional dependencies) and what it installs, as a person names it.
EXTRAS = {
    "mcp": "the MCP SDK",
    "explore": "Starlette and uvicorn",
    "spark": "pyspark",
}


def install_hint(extra: str) -> str:
    """The command that installs ``extra``: from the folder graphmem was installed from, where it was (``pip install
    ./repo`` from a clone: ``pip install '/path/to/repo[explore]'``, with ``-e`` where it was editable; a new user's),
    else by name."""
    source = installed_from()
    if source is None:
        return f"pip install \"graphmem[{extra}]\""
    folder, editable = source
    return f"pip install {'-e ' if editable else ''}{shlex.quote(f'{folder}[{extra}]')}"


def installed_from() -> tuple[str, bool] | None:
    """The local folder this graphmem was installed from and whether editable (pip's ``direct_url.json``, PEP 610),
    or None (installed by name, from an archive or a repository, or the record unreadable)."""
    from importlib import metadata
    from urllib.parse import urlparse
    from urllib.request import url2pathname

    try:
        record = json.loads(metadata.distribution("graphmem").read_text("direct_url.json") or "null")
        url = urlparse(record["url"])
        if url.scheme != "file" or url.netloc not in ("", "localhost") or "dir_info" not in record:
            return None
        return url2pathname(url.path), bool(record["dir_info"].get("editable"))
    except Exception:  # noqa: BLE001 (a hint, built while another error is reported: never one of its own)
        return None


@contextmanager
def needs_extra(extra: str, what: str, error: type[GraphmemError] = MissingExtra) -> Iterator[None]:
    """Run the imports in the block; a module missing from outside graphmem raises ``error``
    saying that ``what`` needs ``extra`` and how to install it."""
    try:
        yield
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if not missing or missing.partition(".")[0] == "graphmem":
            raise
        raise error(f"{what} needs {EXTRAS[extra]}, not installed here (no module named {missing!r}): "
                    f"{install_hint(extra)}") from None
