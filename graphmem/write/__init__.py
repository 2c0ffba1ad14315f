"""Writing: a transaction gathers the gate's plans into one write set and stores it at once.

:mod:`.transaction` (one write), :mod:`.remember` (many messages in one write), :mod:`.review`
(the queue of proposed facts), :mod:`.purge` (the one write that removes content) and
:mod:`.migrations` (numbered changes to stores made by an older release).

Internal: writes are made through :class:`graphmem.Store`.
"""

__all__: list[str] = []
