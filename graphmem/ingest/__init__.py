"""Ingest conversations and another assistant's memories as episodes with proposed facts.

Reading is all or nothing: a whole file is checked, and every message's facts are drawn, before
the first write; a problem names the file and line, and nothing is written. The file is read
again to write it, so only where each message is and the facts drawn are held meanwhile, never
the whole conversation (:mod:`graphmem.ingest._files`).

Writing goes in chat-time order, so that "I like apples" is proposed before "I don't like
apples anymore". Each message is one write of the log: its episode with its proposals, approved
in that same write when asked for (see :func:`record_message`). Many messages are stored in one
transaction (:meth:`graphmem.Store.remember_many`), so a kill leaves a prefix of the
conversation, each message whole, and running the file again finishes it.

Each message's episode has the message's chat time as its reference time: relative phrases
("last week") resolve against when the message was said, never against the import. With
``replay``, each write's transaction time is the chat time too, so a past conversation can be
replayed and then queried as of any moment of it.

The package: :mod:`~graphmem.ingest._files` reads chat and memory files,
:mod:`~graphmem.ingest._drawing` draws facts from messages, :mod:`~graphmem.ingest._writing`
records them, and :mod:`~graphmem.ingest._summary` holds what a run reports.
"""

from ._drawing import EXTRACTORS, first_person, make_extractor
from ._files import Message, MessageFile, read_memories, read_messages, reference_time
from ._summary import Dropped, IngestSummary, Progress, Recorded
from ._writing import BATCH, import_memories, ingest, record_message

__all__ = [
    "BATCH", "EXTRACTORS", "Dropped", "IngestSummary", "Message", "MessageFile", "Progress", "Recorded",
    "first_person", "import_memories", "ingest", "make_extractor", "read_memories", "read_messages",
    "record_message", "reference_time",
]
