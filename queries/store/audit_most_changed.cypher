// The (subject, predicate) keys with the most versions ever written, most first.
MATCH (s:Entity)-[f:Fact]->()
RETURN s.id, f.predicate, count(*) AS versions
ORDER BY versions DESC, s.id, f.predicate
LIMIT $limit
