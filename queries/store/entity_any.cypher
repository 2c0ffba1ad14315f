// Any one entity: whether the store knows anyone or anything at all.
MATCH (e:Entity) RETURN e.id LIMIT 1
