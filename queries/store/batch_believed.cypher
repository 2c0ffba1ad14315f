// The believed versions of each (subject, wanted predicate) whose valid end is at or after ends_from: a batch write's gate input.
// Both engines plan it as a walk of every entity's edges (the hint: from each entity, not a scan
// of the edge table), joined with the rows afterwards: a cost that grows with the store, the
// cheaper one for small stores. Large stores read their keys one at a time (store/fact_believed,
// then store/batch_bodies: transaction.KEY_WORTH, BENCHMARKS.md "Gate batches at 1M").
LOAD FROM $rows
MATCH (s:Entity {id: subject})-[f:Fact]->(o:Entity)
WHERE f.superseded_at = $open AND f.predicate = wanted AND f.valid_to >= ends_from
HINT (s JOIN f) JOIN o
MATCH (b:FactBody {id: f.id})
RETURN s.id, f.predicate, f.id, o.id, f.valid_from, f.valid_to, b.episodes
