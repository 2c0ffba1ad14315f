// The believed versions, with one of $predicates, of the entities at $places (store/entity_places):
// a batch write's gate input. Both engines read only those entities' edges (the places mask the
// scan: ~10 ms for 10 subjects, ~50-90 ms for 1,000, at 1M versions), where a list of subject ids
// joined to the edges is planned as a walk of every edge (store/batch_believed). Only those whose
// valid end is at or after $since (the earliest bound of the batch's keys; each key's own is
// applied by the caller): the rest, most of a subject's past, are not worth sending back.
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE offset(id(s)) IN $places AND f.superseded_at = $open AND f.predicate IN $predicates
  AND f.valid_to >= $since
RETURN s.id, f.predicate, f.id, o.id, f.valid_from, f.valid_to
