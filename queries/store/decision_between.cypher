// Writes with $after < at <= $until, oldest first.
MATCH (d:Decision) WHERE d.at > $after AND d.at <= $until
RETURN d.* ORDER BY d.at
