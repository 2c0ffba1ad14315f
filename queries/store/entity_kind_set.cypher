// Set an entity's kind (person, place, ...); returns the entity when it exists.
MATCH (e:Entity {id: $id}) SET e.kind = $kind RETURN e.id
