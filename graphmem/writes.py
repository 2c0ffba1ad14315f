"""Carrying out one write inside an engine transaction.

The gate (:mod:`graphmem.gate`) decides; a :class:`Transaction` fetches what the
gate needs, stores what it decided, and appends the decision to the write log.
"""

from __future__ import annotations

import re
from datetime import datetime

from . import reads, records
from .engine import Engine
from .errors import Conflict, InvalidInput, NotFound
from .gate import Held, Plan
from .models import Decision, Episode, Proposal, Version
from .temporal import Period
from .timeutil import OPEN_END, TICK, from_engine, iso, to_engine

_SPACES = re.compile(r"\s+")
_LITERAL = re.compile(r"^[-+]?\d+([.,]\d+)?$|^\d{4}-\d{2}(-\d{2})?")
MAX_NAME = 1000


def entity_key(name: str) -> str:
    """The id an entity named ``name`` gets: trimmed, single-spaced, case-folded."""
    if not isinstance(name, str):
        raise InvalidInput(f"an entity name must be text, got {type(name).__name__}")
    key = _SPACES.sub(" ", name.replace("\x00", "")).strip().casefold()
    if not key:
        raise InvalidInput("an entity name cannot be empty")
    if len(key) > MAX_NAME:
        raise InvalidInput(f"an entity name is limited to {MAX_NAME} characters")
    return key


def guess_kind(name: str) -> str:
    """'literal' for numbers and dates, 'entity' otherwise."""
    return "literal" if _LITERAL.match(name.strip()) else "entity"


class Transaction:
    """One write in progress: its transaction time, id counters and engine access."""

    def __init__(self, engine: Engine, meta: dict[str, str], at: datetime):
        self.engine = engine
        self.meta = meta
        self.at = at
        self.decisions: list[Decision] = []
        self.linked_versions: set[str] = set()  # versions this write linked to a further episode
        self._changed: set[str] = set()

    def run(self, query: str, /, **params) -> list[list]:
        """Run a named query inside this write."""
        return self.engine.run(query, params)

    def next_id(self, prefix: str) -> str:
        """The next id of a sequence: v1, v2, ... for versions; ep, d, p, t for the others."""
        number = int(self.meta.get(f"seq:{prefix}", "0")) + 1
        self.meta[f"seq:{prefix}"] = str(number)
        self._changed.add(f"seq:{prefix}")
        return f"{prefix}{number}"

    def _begin_decision(self) -> None:
        """Give each decision of a call that makes several its own, later transaction time."""
        if self.decisions:
            self.at += TICK

    def finish(self) -> None:
        """Save the latest write time and the id counters with the write itself."""
        self.meta["last_write"] = iso(self.at)
        for key in sorted(self._changed | {"last_write"}):
            self.run("store/meta_set", key=key, value=self.meta[key])

    # -- entities and episodes ------------------------------------------------

    def find_entity(self, name_or_id: str) -> str | None:
        """The id of an existing entity named (or identified) ``name_or_id``."""
        for candidate in dict.fromkeys((entity_key(name_or_id), name_or_id)):
            if self._entity_exists(candidate):
                return candidate
        return None

    def ensure_entity(self, name: str, kind: str | None = None) -> str:
        """The id of the entity named ``name``, created on first use."""
        found = self.find_entity(name)
        if found is not None:
            return found
        key = entity_key(name)
        display = _SPACES.sub(" ", name.replace("\x00", "")).strip()
        self._create_entity(key, display, kind or guess_kind(display))
        return key

    def _entity_exists(self, entity_id: str) -> bool:
        return bool(self.run("store/entity_get", id=entity_id))

    def _create_entity(self, entity_id: str, name: str, kind: str) -> None:
        self.run("store/entity_create", id=entity_id, name=name, kind=kind)

    def add_episode(self, text: str, kind: str, actor: str | None, reference_time: datetime | None) -> Episode:
        """Record an immutable episode received now."""
        if not isinstance(text, str) or not text.strip():
            raise InvalidInput("an episode needs some text")
        episode = Episode(
            id=self.next_id("ep"), kind=kind or "manual", text=text, actor=actor,
            reference_time=reference_time or self.at, received_at=self.at,
        )
        self._store_episode({
            "id": episode.id, "kind": episode.kind, "text": episode.text, "actor": episode.actor,
            "reference_time": to_engine(episode.reference_time), "received_at": to_engine(episode.received_at),
        })
        return episode

    def _store_episode(self, row: dict) -> None:
        self.run("store/episode_create", **row)

    def episode(self, episode_id: str) -> Episode:
        """An existing episode, or NotFound."""
        rows = self.run("store/episode_get_one", id=episode_id)
        if not rows:
            raise NotFound(f"no episode {episode_id!r}; list them with `graphmem episodes`")
        return records.episode(rows[0])

    # -- versions ---------------------------------------------------------------

    def believed(self, subject_id: str, predicate: str) -> list[Held]:
        """The currently believed versions of (subject, predicate), as the gate sees them."""
        rows = self.run("store/fact_believed", subject=subject_id, predicate=predicate, open=OPEN_END)
        held = [Held(r[0], r[1], Period(from_engine(r[2]), from_engine(r[3])), tuple(r[4] or ())) for r in rows]
        # Engines return edges in storage order, which differs between them; a fixed order makes
        # the same writes give the same version ids on both.
        return sorted(held, key=lambda h: (h.period.start, int(h.id[1:])))

    def version(self, version_id: str) -> Version:
        """A stored version by id, or NotFound."""
        found = reads.version(self.engine, version_id)
        if found is None:
            raise NotFound(f"no version {version_id!r}; see `graphmem history SUBJECT PREDICATE`")
        return found

    def carry_out(
        self,
        plan: Plan,
        subject_id: str,
        predicate: str,
        *,
        episode: str | None = None,
        reason: str | None = None,
        retracted: tuple[str, ...] = (),
        proposal: str | None = None,
    ) -> Decision:
        """Store what the gate decided and log it as one decision."""
        self._begin_decision()
        decision_id = self.next_id("d")
        created = [(self.next_id("v"), new) for new in plan.create]
        for closed_id in plan.close:
            replaced_by = [vid for vid, new in created if closed_id in new.supersedes]
            rows = self.run(
                "store/fact_close", subject=subject_id, id=closed_id, open=OPEN_END,
                at=to_engine(self.at), superseded_by=replaced_by, decision=decision_id,
                reason=reason if closed_id in retracted else None,
            )
            if len(rows) != 1:
                raise Conflict(f"version {closed_id} is no longer believed; nothing was written")
        for version_id, new in created:
            self.run(
                "store/fact_create", id=version_id, subject=subject_id, object=new.object,
                predicate=predicate, valid_from=to_engine(new.period.start),
                valid_to=to_engine(new.period.end), recorded_at=to_engine(self.at),
                superseded_at=OPEN_END, episodes=list(new.episodes),
                supersedes=list(new.supersedes), superseded_by=[], created_by=decision_id,
                closed_by=None, reason=None,
            )
        for version_id in plan.link:
            self.run("store/fact_link_episode", subject=subject_id, id=version_id, episode=episode)
            self.linked_versions.add(version_id)
        return self._append(
            plan.op, decision_id, created=[vid for vid, _ in created],
            closed=list(plan.close), episode=episode, reason=reason, proposal=proposal,
        )

    def log(self, op: str, *, episode=None, reason=None, proposal=None) -> Decision:
        """Append one decision that writes no version (EPISODE, PROPOSE, REJECT, PURGE)."""
        self._begin_decision()
        return self._append(op, self.next_id("d"), episode=episode, reason=reason, proposal=proposal)

    def _append(self, op: str, decision_id: str, *, created=(), closed=(), episode=None, reason=None,
                proposal=None) -> Decision:
        decision = Decision(
            id=decision_id, op=op, at=self.at, created=list(created),
            closed=list(closed), episode=episode, reason=reason, proposal=proposal,
        )
        self.run(
            "store/decision_create", id=decision.id, op=decision.op, at=to_engine(decision.at),
            created=decision.created, closed=decision.closed, episode=decision.episode,
            reason=decision.reason, proposal=decision.proposal,
        )
        self.decisions.append(decision)
        return decision

    # -- review queue -------------------------------------------------------------

    def queue(self, proposal: Proposal) -> None:
        """Store a pending proposal."""
        self.run(
            "store/proposal_create", id=proposal.id, op=proposal.op, subject=proposal.subject,
            predicate=proposal.predicate, object=proposal.object,
            valid_from=_optional(proposal.valid_from), valid_to=_optional(proposal.valid_to),
            episode=proposal.episode, quote=proposal.quote, source=proposal.source,
            proposed_at=to_engine(proposal.proposed_at),
        )

    def decide(self, proposal_id: str, state: str, reason: str | None, decision: str | None) -> None:
        """Mark a pending proposal approved or rejected."""
        rows = self.run(
            "store/proposal_decide", id=proposal_id, state=state, at=to_engine(self.at),
            reason=reason, decision=decision,
        )
        if not rows:
            raise Conflict(f"proposal {proposal_id} is not pending")


def _optional(value: datetime | None) -> datetime | None:
    return None if value is None else to_engine(value)
