// Every entity's id (the case-folded name), for a match the engine does not make: a name with other accents
// (Store.spelled_like; kuzu compiles a pattern again at each row).
MATCH (e:Entity) RETURN e.id AS id
