"""Numbered migrations of a store's files.

The number of the last migration applied is kept in the store's settings (``schema``), so a
store made by an older release is brought up to date step by step, and a new store starts at
the latest number. A migration changes how the log is held, never what it says, with one
exception that is itself a recorded write: entities whose names became one name (see
:func:`rekey_entities`) are merged by a ``MERGE`` write in the log.

Most migrations are small and run in place when a store is opened. One kind is not: a change
of the tables' layout, which rewrites the store's files. Opening a store whose layout is older
than this release's raises :class:`~graphmem.errors.MigrationNeeded`; ``graphmem migrate``
(:func:`upgrade`) backs the store up, rewrites it in the current layout (:func:`graphmem.log.backup.rewrite`:
one rename at the end, so a kill at any moment leaves the old store or the new one), and the
in-place steps then run on the new layout as on any store. A store's layout is read from the
engine's catalog, not from its number: the files say what they hold.

Internal: a store applies them itself when it is opened.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, NamedTuple

from ..core import records, tables
from ..core.gate import Held, plan_restate
from ..core.names import entity_key
from ..core.temporal import Period
from ..engine import Engine
from ..errors import InvalidInput, MigrationNeeded
from ..log.backup import Progress, rewrite
from ..models import Entity, Version
from ..read.questions import layout_is_current, with_bodies
from .transaction import Transaction, row_of

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["SCHEMA_KEY", "layout_is_current", "migrate", "refuse_old_layout", "upgrade"]

SCHEMA_KEY = "schema"

#: Opens one atomic write of the log (``Store._write``): a merge is a write like any other.
Write = Callable[[], AbstractContextManager[Transaction]]


class Migration(NamedTuple):
    number: int
    about: str
    apply: Callable[[Engine, Write, Callable[[str], str]], None]


def index_versions(engine: Engine, write: Write, kind_of: Callable[[str], str]) -> None:
    """Index every stored version by id (stores made before the index existed). Nothing is left
    to do in place: such a store is in an older layout, and the rewrite into the current one
    (:func:`upgrade`) gives every version its body, the index by id."""


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


# -- layouts: rewritten by `graphmem migrate` ------------------------------------------------------


def refuse_old_layout(engine: Engine, where: object, held: set[str] | None = None) -> None:
    """Raise MigrationNeeded for a store written in an older layout (nothing is changed).
    ``held``: the tables the database holds, when the caller has read them."""
    if not layout_is_current(engine, held):
        raise MigrationNeeded(
            f"the store at {where} was written by an older graphmem, in a layout this release does not "
            f"read; convert it with `graphmem --store {where} migrate` (it takes a backup first)")


def current_layout(old: dict[str, pa.Table]) -> dict[str, pa.Table]:
    """A store's tables as an older layout held them (read by the engine's catalog: a Fact edge
    carrying every column of a version) as this release's tables, in load order: Fact split into
    its edge and its body (FactBody, which takes the place of the older VersionKey index), every
    other table as declared (a column or table an older store lacks is empty)."""
    import pyarrow as pa

    facts = old["Fact"]
    body = {"id": facts.column("id"), "subject": facts.column("from"),
            **{name: facts.column(name) for name in tables.by_name("Fact").apart}}
    found = {}
    for table in tables.TABLES:
        rows = pa.table(body) if table.name == "FactBody" else old.get(table.name)
        schema = table.arrow_schema()
        if rows is None:
            found[table.name] = schema.empty_table()
            continue
        found[table.name] = pa.Table.from_arrays(
            [rows.column(f.name).cast(f.type) if f.name in rows.column_names else pa.nulls(rows.num_rows, f.type)
             for f in schema], schema=schema)
    return found


def upgrade(engine: Engine, progress: Progress | None = None) -> bool:
    """Rewrite a store written in an older layout in the current one; False if it already was.
    The store's in-place migrations run when it is next opened, on the new layout."""
    if layout_is_current(engine):
        return False
    rewrite(engine, current_layout, progress)
    return True


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
    return [records.version(row) for row in with_bodies(engine, engine.run("store/entity_facts", {"id": entity_id}))]


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
        moved = v.model_copy(update={end: key for end in ("subject_id", "object_id") if getattr(v, end) == entity.id})
        engine.run("insert/Fact", row_of("Fact", moved))
        engine.run("insert/FactBody", row_of("FactBody", moved))
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
