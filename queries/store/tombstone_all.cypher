// Every purge record, oldest first.
MATCH (t:Tombstone) RETURN t.* ORDER BY t.at
