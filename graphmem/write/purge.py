"""Purge: the one write that removes content, leaving a tombstone without it.

Internal: use :meth:`graphmem.Store.purge`.
"""

from __future__ import annotations

from typing import Literal

from ..core import records
from ..core.names import entity_key
from ..errors import InvalidInput, NotFound
from ..models import Tombstone, Version
from .transaction import Transaction

__all__ = ["purge"]


def purge(txn: Transaction, target: Literal["entity", "episode", "version"], target_id: str) -> Tombstone:
    """Hard-delete an entity (with its versions and their episodes), an episode, or a version."""
    entity_ids: list[str] = []
    episodes: list[str] = []
    if target == "version":
        versions = [txn.version(target_id)]
    elif target == "episode":
        versions = []
        episodes = [txn.episode(target_id).id]
    else:
        entity_id = txn.find_entity(target_id)
        if entity_id is None:
            raise NotFound(f"no entity named {target_id!r}")
        entity_ids = [entity_id, *_merged_into(txn, entity_id)]
        found = {r[4]["id"]: records.version(r) for e in entity_ids for r in txn.run("store/entity_facts", id=e)}
        versions = list(found.values())
        episodes = sorted({e for v in versions for e in v.episodes})

    purged = {v.id for v in versions}
    for version in versions:
        txn.run("store/fact_delete", subject=version.subject_id, id=version.id)
        txn.run("store/version_key_delete", id=version.id)
        txn.run("store/link_delete", version=version.id, episode="")
    for episode_id in episodes:
        for row in txn.run("store/episode_versions", episode=episode_id):
            _unlink(txn, records.version(row), episode_id)
        txn.run("store/episode_delete", id=episode_id)
        txn.run("store/link_delete", version="", episode=episode_id)
    txn.run("recall/embedding_delete", ids=sorted(purged) + episodes)  # their vectors hold their meaning
    proposals = _purge_proposals(txn, set(episodes), set(entity_ids))
    for entity_id in entity_ids:
        txn.run("store/entity_delete", id=entity_id)
    for row in txn.run("store/decision_all"):
        decision = records.decision(row)
        touched = set(decision.created + decision.closed)
        if decision.proposal in proposals:  # its reason (a rejection's) is about what was purged
            txn.run("store/decision_forget", id=decision.id)
        elif decision.reason and touched and touched <= purged:
            txn.run("store/decision_forget_reason", id=decision.id)

    tombstone = Tombstone(
        id=txn.next_id("t"), target=target, at=txn.at, versions=sorted(purged),
        episodes=episodes, entities=len(entity_ids), proposals=len(proposals),
    )
    txn.tombstone(tombstone)
    summary = f"purged {target}: {len(purged)} versions, {len(episodes)} episodes"
    txn.log("PURGE", reason=summary)
    return tombstone


def _unlink(txn: Transaction, version: Version, episode_id: str) -> None:
    txn.run(
        "store/fact_set_links", subject=version.subject_id, id=version.id,
        episodes=[e for e in version.episodes if e != episode_id],
        supersedes=version.supersedes, superseded_by=version.superseded_by,
    )


def _merged_into(txn: Transaction, entity_id: str) -> list[str]:
    """The other entities carrying the same name: ones an older store held apart, merged since."""
    twins = []
    for other in map(records.entity, txn.run("store/entity_all")):
        try:
            if other.id != entity_id and entity_key(other.name) == entity_id:
                twins.append(other.id)
        except InvalidInput:
            continue
    return twins


def _purge_proposals(txn: Transaction, episodes: set[str], entity_ids: set[str]) -> set[str]:
    """Delete the proposals drawn from a purged episode or naming a purged entity; return their ids."""
    purged = set()
    for row in txn.run("store/proposal_all"):
        proposal = records.proposal(row)
        names = [proposal.subject] + ([proposal.object] if proposal.object else [])
        mentions = any(_key_or_none(n) in entity_ids for n in names)
        if proposal.episode in episodes or mentions:
            txn.run("store/proposal_delete", id=proposal.id)
            purged.add(proposal.id)
    return purged


def _key_or_none(name: str) -> str | None:
    try:
        return entity_key(name)
    except InvalidInput:
        return None
