// The aliases (a $predicate edge, either direction) believed at $as_of of each entity in $ids: the entity, the other
// name and where the alias's valid time ends (a primary-key match, then those entities' edges, filtered after WITH).
MATCH (s:Entity)-[f:Fact]-(o:Entity)
WHERE s.id IN $ids
WITH s, f, o
WHERE f.predicate = $predicate AND {{believed f $as_of}}
RETURN s.id, o.id, f.valid_to
