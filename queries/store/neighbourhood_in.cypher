// Versions believed at $as_of, valid at some time in [$valid_lo, $valid_hi], whose object is
// among $ids (see neighbourhood_out).
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE o.id IN $ids
WITH s, f, o
WHERE {{believed f $as_of}}
  AND f.valid_from <= $valid_hi AND f.valid_to > $valid_lo
  AND ($any_predicate OR f.predicate IN $predicates)
RETURN s.id, s.name, o.id, o.name, f, s.kind, o.kind
