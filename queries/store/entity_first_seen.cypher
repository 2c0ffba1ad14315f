// When an entity's first version was recorded (null for an entity with none).
MATCH (e:Entity {id: $id})-[f:Fact]-(:Entity)
RETURN min(f.recorded_at)
