// Versions believed at $as_of, valid at some time in [$valid_lo, $valid_hi], whose subject is
// among $ids: a primary-key match, then those entities' edges, the time filter after WITH
// (where both engines apply it to the few edges found). (No UNION with the incoming half:
// kuzu 0.11.3 crashes preparing a UNION that uses one list parameter twice.)
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE s.id IN $ids
WITH s, f, o
WHERE {{believed f $as_of}}
  AND f.valid_from <= $valid_hi AND f.valid_to > $valid_lo
  AND ($any_predicate OR f.predicate IN $predicates)
RETURN s.id, s.name, o.id, o.name, f, s.kind, o.kind
