// Purge an entity and every edge touching it.
MATCH (e:Entity {id: $id}) DETACH DELETE e
