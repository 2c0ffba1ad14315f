// Every version an episode supports.
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE list_contains(f.episodes, $episode)
RETURN s.id, s.name, o.id, o.name, f
