// The subject of a version, by the version's id (a primary-key lookup).
MATCH (k:VersionKey {id: $id}) RETURN k.subject
