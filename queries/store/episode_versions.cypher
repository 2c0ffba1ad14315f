// Every version citing an episode: its bodies first, then each one's edge through its subject.
MATCH (b:FactBody)
WHERE list_contains(b.episodes, $episode)
MATCH (s:Entity {id: b.subject})-[f:Fact]->(o:Entity)
WHERE f.id = b.id
RETURN s.id, s.name, o.id, o.name, f, b
