// The aliases (a $predicate edge, either direction) of one entity believed at $as_of: the other name, where its valid time ends, and the version.
MATCH (s:Entity {id: $id})-[f:Fact]-(o:Entity)
WHERE f.predicate = $predicate AND {{believed f $as_of}}
RETURN o.id, f.valid_to, f.id
