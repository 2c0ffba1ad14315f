// When the store's first write happened (null for an empty log).
MATCH (d:Decision) RETURN min(d.at)
