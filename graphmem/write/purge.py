"""Purge: the one write that removes content, leaving a tombstone without it.

Internal: use :meth:`graphmem.Store.purge`.
"""

from __future__ import annotations

from typing import Literal

from ..core import records
from ..core.names import entity_key, redact
from ..errors import InvalidInput, NotFound
from ..models import Tombstone, Version
from ..read import aliases
from ..read.questions import with_bodies
from .transaction import Transaction

__all__ = ["purge"]


def purge(txn: Transaction, target: Literal["entity", "episode", "version"], target_id: str) -> Tombstone:
    """Hard-delete an entity (with its versions and their episodes), an episode, or a version.

    An entity goes with every entity believed to be it (its aliases) and everything said of them.
    An entity's name is also taken out of every recorded text that stays (other episodes, reasons,
    quotes); an entity the purge leaves with no facts goes with it.
    """
    entity_ids: list[str] = []
    episodes: list[str] = []
    names: set[str] = set()
    if target == "version":
        versions = [txn.version(target_id)]
        episodes = _only_support(txn, versions[0])
    elif target == "episode":
        versions = []
        episodes = [txn.episode(target_id).id]
    else:
        entity_id = txn.find_entity(target_id)
        if entity_id is None:
            raise NotFound(f"no entity named {target_id!r}")
        group = (entity_id, *aliases.group_of(txn.engine, entity_id, txn.at, None))  # every name it goes by
        entity_ids = list(dict.fromkeys(e for member in group for e in (member, *_merged_into(txn, member))))
        names = {k for e in entity_ids for n in (e, *_names(txn, e)) if (k := _key_or_none(n))}
        found = {r[4]["id"]: records.version(r) for e in entity_ids
                 for r in with_bodies(txn.engine, txn.run("store/entity_facts", id=e))}
        versions = list(found.values())
        episodes = sorted({e for v in versions for e in v.episodes})

    purged = {v.id for v in versions}
    for version in versions:
        txn.run("store/fact_delete", subject=version.subject_id, id=version.id)
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
    ends = {e for v in versions for e in (v.subject_id, v.object_id)} - set(entity_ids)
    orphans = sorted(e for e in ends if not txn.run("store/entity_facts", id=e))
    for entity_id in orphans:  # nothing refers to it any more: its name goes too
        txn.run("store/entity_delete", id=entity_id)
    for row in txn.run("store/decision_all"):
        decision = records.decision(row)
        touched = set(decision.created + decision.closed)
        if decision.proposal in proposals:  # its reason (a rejection's) is about what was purged
            txn.run("store/decision_forget", id=decision.id)
        elif decision.reason and touched and touched <= purged:
            txn.run("store/decision_forget_reason", id=decision.id)
    redacted = _redact(txn, names) if names else 0

    tombstone = Tombstone(
        id=txn.next_id("t"), target=target, at=txn.at, versions=sorted(purged),
        episodes=episodes, entities=len(entity_ids) + len(orphans), proposals=len(proposals),
    )
    txn.tombstone(tombstone)
    summary = f"purged {target}: {len(purged)} versions, {len(episodes)} episodes"
    if orphans:
        summary += f", {len(orphans)} entities left with no facts"
    if redacted:
        summary += f", the name taken out of {redacted} texts"
    txn.log("PURGE", reason=summary)
    return tombstone


def _names(txn: Transaction, entity_id: str) -> list[str]:
    return [records.entity(row).name for row in txn.run("store/entity_get", id=entity_id)]


def _only_support(txn: Transaction, version: Version) -> list[str]:
    """The episodes ``version`` cites that support no other version (its quote): they go with it."""
    return [e for e in version.episodes
            if all(records.version(r).id == version.id for r in txn.run("store/episode_versions", episode=e))]


def _redact(txn: Transaction, names: set[str]) -> int:
    """Take the purged ``names`` out of every recorded text that stays; return how many texts changed.

    An episode whose text changes loses its embedding vector (it held the name's meaning).
    """
    rewritten = []
    for row in txn.run("store/episode_all"):
        episode = records.episode(row)
        text = redact(episode.text, names)
        actor = None if episode.actor is None else redact(episode.actor, names)
        if (text, actor) != (episode.text, episode.actor):
            txn.run("store/episode_redact", id=episode.id, text=text, actor=actor)
            rewritten.append(episode.id)
    txn.run("recall/embedding_delete", ids=rewritten)
    changed = len(rewritten)
    for row in txn.run("store/decision_all"):
        decision = records.decision(row)
        if decision.reason and (reason := redact(decision.reason, names)) != decision.reason:
            txn.run("store/decision_set_reason", id=decision.id, reason=reason)
            changed += 1
    for row in txn.run("store/fact_all"):
        version = records.version(row)
        if version.reason and (reason := redact(version.reason, names)) != version.reason:
            txn.run("store/fact_set_reason", subject=version.subject_id, id=version.id, reason=reason)
            changed += 1
    for row in txn.run("store/proposal_all"):
        proposal = records.proposal(row)
        quote = None if proposal.quote is None else redact(proposal.quote, names)
        why = None if proposal.reason is None else redact(proposal.reason, names)
        if (quote, why) != (proposal.quote, proposal.reason):
            txn.run("store/proposal_redact", id=proposal.id, quote=quote, reason=why)
            changed += 1
    return changed


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
