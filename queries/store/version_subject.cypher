// The subject of a version, by the version's id (a primary-key lookup).
MATCH (k:FactBody {id: $id}) RETURN k.subject
