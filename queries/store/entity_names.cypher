// Every entity's id and name (the look-alike index of names).
MATCH (e:Entity) RETURN e.id, e.name
