// The aliases (a $predicate edge) believed at $as_of, as versions: ends, names and the edge.
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE f.predicate = $predicate AND {{believed f $as_of}}
RETURN s.id, s.name, o.id, o.name, f
