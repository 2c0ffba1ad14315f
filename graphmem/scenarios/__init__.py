"""The bundled scenarios' data files.

Internal: read them with :func:`graphmem.scenario.load`.
"""

__all__: list[str] = []
