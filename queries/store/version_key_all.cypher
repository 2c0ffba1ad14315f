// Every VersionKey entry (for `check`).
MATCH (k:VersionKey) RETURN k.id, k.subject
