// Every purge record, oldest first.
MATCH (t:Tombstone) RETURN t.id, t.target, t.at, t.versions, t.episodes, t.entities, t.proposals ORDER BY t.at
