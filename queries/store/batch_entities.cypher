// Which of these candidate ids name an entity (a batch write's lookup; $rows is an Arrow table).
LOAD FROM $rows
MATCH (e:Entity {id: candidate})
RETURN e.id
