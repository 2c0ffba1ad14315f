// Every alias (a $predicate edge) believed at $as_of: both names and where its valid time ends.
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE f.predicate = $predicate AND {{believed f $as_of}}
RETURN s.id, o.id, f.valid_to
