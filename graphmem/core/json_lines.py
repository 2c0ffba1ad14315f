"""Reading JSON Lines from outside: regular files only, lines capped while read, FILE:LINE errors.

Every file graphmem reads line by line (an exported log, a chat to ingest, a labelled evaluation
set, a list of questions) comes through here: a device, a FIFO or a directory is refused before
a byte is read, no line longer than the cap is ever held, JSON nested too deeply is a clear
error (never a RecursionError), and a problem names the file and the line.

Internal: the log's import, ingest and the evaluation sets read files with these.
"""

from __future__ import annotations

import json
import os
import re
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from ..errors import GraphmemError, ImportFailed

__all__ = ["LONE_SURROGATE", "MAX_LINE", "loads", "lines", "open_regular", "private_beside", "records"]

#: The longest line read, in bytes (a log record or a message is far shorter).
MAX_LINE = 16 << 20
#: The largest log an import reads unless asked for a large one, in bytes: a log is held whole
#: while it is checked, about ten times its size in memory, so this keeps an import near 1 GB.
SMALL_LOG = 96 << 20


#: Half of a UTF-16 pair, alone: what JSON's "\ud800" decodes to; no character, and no store can keep it.
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def private_beside(path: Path) -> tuple[Path, TextIO]:
    """A new text file beside ``path``, readable by its user alone (0600), named for this writer alone, to be renamed
    onto ``path`` once whole: an export holds every message's text (an attacker's: a log written 644 was readable by
    every user of the machine), and neither a leftover of an interrupted export nor another writer's file (a
    reviewer's: three exports at once to one path unlinked each other's) lends it its mode or its name."""
    handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
    return Path(name), os.fdopen(handle, "w", encoding="utf-8")


def open_regular(path: Path, error: type[GraphmemError] = ImportFailed) -> BinaryIO:
    """``path`` opened for reading if it is a regular file (or a link to one); ``error`` otherwise.
    A device (``/dev/zero``), a FIFO, a socket or a directory is never read from nor waited on:
    the file is opened without blocking and its type checked on the open handle."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror}") from exc
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            what = ("a directory" if stat.S_ISDIR(mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(mode)
                    else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode)
                    else "not a file")
            raise error(f"{path} is {what}, not a regular file; only regular files are read")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def lines(handle: BinaryIO, path: Path, limit: int = MAX_LINE,
          error: type[GraphmemError] = ImportFailed) -> Iterator[tuple[int, bytes]]:
    """(number, line) of each line of ``handle``, counted from 1; ``error`` at a line longer than
    ``limit`` bytes, found while it is read (never more than ``limit`` bytes held)."""
    number = 0
    while raw := handle.readline(limit + 1):
        number += 1
        if len(raw) > limit:
            raise error(f"{path}:{number}: a line longer than {limit:,} bytes")
        yield number, raw


def loads(text: bytes | str) -> Any:
    """JSON parsed; ValueError (never RecursionError) for arrays or objects nested too deeply."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def records(path: Path, error: type[GraphmemError] = ImportFailed) -> Iterator[tuple[str, Any]]:
    """(``FILE:LINE``, value) of each non-blank line of a JSON Lines file (a byte-order mark at the
    start allowed); ``error`` naming the line for one that is not UTF-8 or not JSON."""
    with open_regular(path, error) as handle:
        for number, raw in lines(handle, path, error=error):
            where = f"{path}:{number}"
            try:
                text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as exc:
                raise error(f"{where}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
            if not text.strip():
                continue
            try:
                yield where, loads(text)
            except json.JSONDecodeError as exc:
                raise error(f"{where}: not JSON (invalid JSON: {exc.msg}, column {exc.colno})") from None
            except ValueError as exc:
                raise error(f"{where}: not JSON ({exc})") from None
