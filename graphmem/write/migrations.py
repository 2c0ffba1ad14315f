"""Numbered migrations of a store's files, applied once each when a store is opened.

The number of the last migration applied is kept in the store's settings (``schema``), so a
store made by an older release is brought up to date step by step, and a new store starts at
the latest number. A migration changes how the log is held, never what it says, with one
exception that is itself a recorded write: entities whose names became one name (see
:func:`rekey_entities`) are merged by a ``MERGE`` write in the log.

Internal: a store applies them itself when it is opened.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import NamedTuple

from ..core import records
from ..core.gate import Held, plan_restate
from ..core.names import entity_key
from ..core.temporal import Period
from ..engine import Engine
from ..errors import InvalidInput
from ..models import Entity, Version
from .transaction import Transaction, row_of

__all__ = ["SCHEMA_KEY", "migrate"]

SCHEMA_KEY = "schema"

#: Opens one atomic write of the log (``Store._write``): a merge is a write like any other.
Write = Callable[[], AbstractContextManager[Transaction]]


class Migration(NamedTuple):
    number: int
    about: str
    apply: Callable[[Engine, Write, Callable[[str], str]], None]


def index_versions(engine: Engine, write: Write, kind_of: Callable[[str], str]) -> None:
    """Index every stored version in VersionKey (stores made before VersionKey existed)."""
    with engine.transaction():
        engine.run("store/version_keys_fill")


def rekey_entities(engine: Engine, write: Write, kind_of: Callable[[str], str]) -> None:
    """Key every entity by its normalised name (NFKC, format characters dropped, case folded).

    An entity whose id was its name keyed the old way (trimmed and case-folded only) gets its
    new key as id, its facts moved along unchanged. Where several entities now share one key
    ("José" typed composed and decomposed, "Ｉｖａｎ" and "ivan"), one survives under the key
    and the others are merged into it by a recorded ``MERGE`` write: each of their believed
    versions is closed and restated about the survivor, as of the merge; their history stays.
    """
    groups: dict[str, list[Entity]] = {}
    for entity in map(records.entity, engine.run("store/entity_all")):
        try:
            groups.setdefault(entity_key(entity.name), []).append(entity)
        except InvalidInput:
            continue  # a name with nothing visible, accepted by an old release: left as it is
    merges = []
    with engine.transaction():
        for key, group in sorted(groups.items()):
            if len(group) == 1 and group[0].id == key:
                continue
            survivor = _survivor(engine, key, group)
            if survivor.id != key:
                _rename(engine, survivor, key)
            merges += [(entity, survivor.model_copy(update={"id": key}))
                       for entity in group if entity.id != survivor.id]
    if merges:
        with write() as txn:
            for loser, survivor in merges:
                _merge(txn, loser, survivor, kind_of)


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "index versions by id", index_versions),
    Migration(2, "key entities by their normalised names; merge the ones that became one", rekey_entities),
    Migration(3, "key names without the characters Unicode says to ignore (variation selectors, U+034F...); "
                 "merge the ones that became one", rekey_entities),
)
LATEST = MIGRATIONS[-1].number


def migrate(engine: Engine, settings: dict[str, str], write: Write, kind_of: Callable[[str], str]) -> list[int]:
    """Apply the migrations the store has not had yet; return their numbers.

    ``settings`` are the store's settings before any migration: a store with none is new and
    starts at the latest number; one made before numbered migrations is at 1 if its versions
    were indexed, else 0.
    """
    if "timezone" not in settings:
        applied = LATEST
    elif SCHEMA_KEY in settings:
        applied = int(settings[SCHEMA_KEY])
    else:
        applied = 1 if settings.get("index:version_key") == "1" else 0
    done = []
    for step in MIGRATIONS:
        if step.number > applied:
            step.apply(engine, write, kind_of)
            done.append(step.number)
            applied = step.number
        if done or SCHEMA_KEY not in settings:
            engine.run("store/meta_set", {"key": SCHEMA_KEY, "value": str(applied)})
    return done


# -- rekeying ----------------------------------------------------------------------------------------


def _facts_of(engine: Engine, entity_id: str) -> list[Version]:
    return [records.version(row) for row in engine.run("store/entity_facts", {"id": entity_id})]


def _survivor(engine: Engine, key: str, group: list[Entity]) -> Entity:
    """The entity that keeps the name: the one already keyed so, else the one with most facts."""
    for entity in group:
        if entity.id == key:
            return entity
    return max(group, key=lambda e: (len(_facts_of(engine, e.id)), [-ord(c) for c in e.id]))


def _rename(engine: Engine, entity: Entity, key: str) -> None:
    """Give ``entity`` the id ``key``: a new node, and every fact touching it moved to it unchanged."""
    engine.run("insert/Entity", {"id": key, "name": entity.name, "kind": entity.kind})
    for v in _facts_of(engine, entity.id):
        engine.run("store/fact_delete", {"subject": v.subject_id, "id": v.id})
        engine.run("store/version_key_delete", {"id": v.id})
        moved = v.model_copy(update={end: key for end in ("subject_id", "object_id") if getattr(v, end) == entity.id})
        row = row_of("Fact", moved)
        engine.run("insert/Fact", row)
        engine.run("insert/VersionKey", {"id": v.id, "subject": row["from"]})
    engine.run("store/entity_delete", {"id": entity.id})


def _merge(txn: Transaction, loser: Entity, survivor: Entity, kind_of: Callable[[str], str]) -> None:
    """Restate each believed version about ``loser`` about ``survivor``, one MERGE decision each."""
    reason = (f"merged {loser.name!r} ({loser.id}) into {survivor.name!r} ({survivor.id}): "
              "one name once Unicode forms, case and spacing are set aside")
    believed = [v for v in _facts_of(txn.engine, loser.id) if v.superseded_at is None]
    for v in sorted(believed, key=lambda v: int(v.id[1:])):
        subject = survivor.id if v.subject_id == loser.id else v.subject_id
        obj = survivor.id if v.object_id == loser.id else v.object_id
        moved = Held(v.id, v.object_id, Period(v.valid_from, v.valid_to), tuple(v.episodes))
        plan = plan_restate(kind_of(v.predicate), txn.believed(subject, v.predicate), moved, obj)
        txn.carry_out(plan._replace(link=()), subject, v.predicate, reason=reason, owners={v.id: v.subject_id})
        for held in plan.link:  # the survivor held it already: the merged version's support joins it
            have = next(h for h in txn.believed(subject, v.predicate) if h.id == held)
            for episode in v.episodes:
                if episode not in have.episodes:
                    txn.link(subject, v.predicate, held, episode)
