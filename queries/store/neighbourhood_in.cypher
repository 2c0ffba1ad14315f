// Versions believed at $as_of, valid at some time in [$valid_lo, $valid_hi], whose object is
// among $ids (see neighbourhood_out). The hint: unhinted, kuzu walks every Fact edge forward to
// find those few (~70 ms a person at 1M versions; hinted ~5 ms).
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE o.id IN $ids
{{hint (o JOIN f) JOIN s}}
WITH s, f, o
WHERE {{believed f $as_of}}
  AND f.valid_from <= $valid_hi AND f.valid_to > $valid_lo
  AND ($any_predicate OR f.predicate IN $predicates)
RETURN s.id, s.name, o.id, o.name, f, s.kind, o.kind
