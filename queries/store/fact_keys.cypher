// Every version's edge: its id and subject (for `check`, against the bodies).
MATCH (s:Entity)-[f:Fact]->() RETURN f.id, s.id
