// Index every stored version in VersionKey (once, for a store made before VersionKey existed).
MATCH (s:Entity)-[f:Fact]->()
CREATE (:VersionKey {id: f.id, subject: s.id})
