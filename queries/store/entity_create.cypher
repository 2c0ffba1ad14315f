// Create an entity.
CREATE (:Entity {id: $id, name: $name, kind: $kind})
