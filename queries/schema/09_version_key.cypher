// Where each fact version is stored: its subject, so a version is found by id through the
// subject's edges instead of a scan of every edge (relationship properties have no index).
CREATE NODE TABLE IF NOT EXISTS VersionKey(id STRING PRIMARY KEY, subject STRING)
