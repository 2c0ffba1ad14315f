// Write one fact version, and its entry in VersionKey.
MATCH (s:Entity {id: $subject})
MATCH (o:Entity {id: $object})
CREATE (s)-[:Fact {id: $id, predicate: $predicate, valid_from: $valid_from, valid_to: $valid_to, recorded_at: $recorded_at, superseded_at: $superseded_at, episodes: $episodes, supersedes: $supersedes, superseded_by: $superseded_by, created_by: $created_by, closed_by: $closed_by, reason: $reason}]->(o)
CREATE (:VersionKey {id: $id, subject: $subject})
