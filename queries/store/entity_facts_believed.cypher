// The versions believed at $as_of with an entity as subject or object (a timeline's: the rest are
// left in the engine rather than read, given their bodies and dropped). UNION ALL: a fact from
// the entity to itself comes twice, and the caller keeps one per version id.
MATCH (s:Entity {id: $id})-[f:Fact]->(o:Entity)
WHERE {{believed f $as_of}}
{{hint (s JOIN f) JOIN o}}
RETURN s.id, s.name, o.id, o.name, {{edge_columns f}}
UNION ALL
MATCH (s:Entity)-[f:Fact]->(o:Entity {id: $id})
WHERE {{believed f $as_of}}
{{hint (o JOIN f) JOIN s}}
RETURN s.id, s.name, o.id, o.name, {{edge_columns f}}
