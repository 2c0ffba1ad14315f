// The believed versions of each (subject, wanted predicate) whose valid end is at or after ends_from: a batch write's gate input.
// The hint makes the engines start from each row's subject (a key lookup) and walk its edges,
// instead of joining the rows with every edge of the store (BENCHMARKS.md).
LOAD FROM $rows
MATCH (s:Entity {id: subject})-[f:Fact]->(o:Entity)
WHERE f.superseded_at = $open AND f.predicate = wanted AND f.valid_to >= ends_from
HINT (s JOIN f) JOIN o
MATCH (b:FactBody {id: f.id})
RETURN s.id, f.predicate, f.id, o.id, f.valid_from, f.valid_to, b.episodes
