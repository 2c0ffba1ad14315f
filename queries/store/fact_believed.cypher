// The currently believed versions of one (subject, predicate): the write gate's input.
MATCH (s:Entity {id: $subject})-[f:Fact]->(o:Entity)
WITH s, f, o
WHERE f.predicate = $predicate AND f.superseded_at = $open
RETURN f.id, o.id, f.valid_from, f.valid_to, f.episodes
