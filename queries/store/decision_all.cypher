// The whole write log, oldest first.
MATCH (d:Decision) RETURN d.* ORDER BY d.at
