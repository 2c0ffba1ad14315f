// Every declared predicate.
MATCH (p:Predicate) RETURN p.name, p.kind ORDER BY p.name
