"""Purge: the one write that removes content, leaving a tombstone without it."""

from __future__ import annotations

from . import records
from .errors import NotFound
from .models import Tombstone, Version
from .writes import Transaction, entity_key


def purge(txn: Transaction, target: str, target_id: str) -> Tombstone:
    """Hard-delete an entity (with its versions and their episodes), an episode, or a version."""
    entity_id = None
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
        versions = [records.version(r) for r in txn.run("store/entity_facts", id=entity_id)]
        episodes = sorted({e for v in versions for e in v.episodes})

    purged = {v.id for v in versions}
    for version in versions:
        txn.run("store/fact_delete", subject=version.subject_id, id=version.id)
        txn.run("store/version_key_delete", id=version.id)
    for episode_id in episodes:
        for row in txn.run("store/episode_versions", episode=episode_id):
            _unlink(txn, records.version(row), episode_id)
        txn.run("store/episode_delete", id=episode_id)
    txn.run("recall/embedding_delete", ids=sorted(purged) + episodes)  # their vectors hold their meaning
    proposals = _purge_proposals(txn, set(episodes), entity_id)
    if entity_id is not None:
        txn.run("store/entity_delete", id=entity_id)
    for row in txn.run("store/decision_all"):
        decision = records.decision(row)
        touched = set(decision.created + decision.closed)
        if decision.reason and touched and touched <= purged:
            txn.run("store/decision_forget_reason", id=decision.id)

    tombstone = Tombstone(
        id=txn.next_id("t"), target=target, at=txn.at, versions=sorted(purged),
        episodes=episodes, entities=1 if entity_id else 0, proposals=proposals,
    )
    txn.run(
        "store/tombstone_create", id=tombstone.id, target=target, at=txn.at.replace(tzinfo=None),
        versions=tombstone.versions, episodes=tombstone.episodes, entities=tombstone.entities,
        proposals=tombstone.proposals,
    )
    summary = f"purged {target}: {len(purged)} versions, {len(episodes)} episodes"
    txn.log("PURGE", reason=summary)
    return tombstone


def _unlink(txn: Transaction, version: Version, episode_id: str) -> None:
    txn.run(
        "store/fact_set_links", subject=version.subject_id, id=version.id,
        episodes=[e for e in version.episodes if e != episode_id],
        supersedes=version.supersedes, superseded_by=version.superseded_by,
    )


def _purge_proposals(txn: Transaction, episodes: set[str], entity_id: str | None) -> int:
    count = 0
    for row in txn.run("store/proposal_all"):
        proposal = records.proposal(row)
        names = [proposal.subject] + ([proposal.object] if proposal.object else [])
        mentions = entity_id is not None and any(entity_key(n) == entity_id for n in names)
        if proposal.episode in episodes or mentions:
            txn.run("store/proposal_delete", id=proposal.id)
            count += 1
    return count
