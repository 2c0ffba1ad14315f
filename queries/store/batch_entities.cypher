// Which of these ids name an entity (a batch write's lookup; UNWIND makes it one hash join).
UNWIND $ids AS candidate
MATCH (e:Entity {id: candidate})
RETURN e.id
