// Every entity.
MATCH (e:Entity) RETURN e.id, e.name, e.kind ORDER BY e.id
