// Remove a purged version's entry in VersionKey.
MATCH (k:VersionKey {id: $id}) DELETE k
