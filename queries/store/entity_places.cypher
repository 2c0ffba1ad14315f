// The places in the Entity table (offset(id(s))) of the entities with these ids, a batch write's
// subjects: one primary-key lookup each on both engines.
UNWIND $ids AS i
MATCH (s:Entity {id: i})
RETURN offset(id(s))
