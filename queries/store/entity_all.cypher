// Every entity.
MATCH (e:Entity) RETURN e.* ORDER BY e.id
