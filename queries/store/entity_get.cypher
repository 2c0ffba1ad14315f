// One entity by id.
MATCH (e:Entity {id: $id}) RETURN e.*
