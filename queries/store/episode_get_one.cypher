// One episode by id. (kuzu 0.11 answers `e.id IN $ids` wrongly for an episode created in the open transaction.)
MATCH (e:Episode {id: $id}) RETURN e.*
