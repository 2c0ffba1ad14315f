// Every version ever written of one (subject, predicate).
// The edge as its columns, by name: a whole edge comes back as a dict of every property, slower to make.
MATCH (s:Entity {id: $subject})-[f:Fact]->(o:Entity)
WHERE f.predicate = $predicate
{{hint (s JOIN f) JOIN o}}
RETURN s.id, s.name, o.id, o.name, {{edge_columns f}}
