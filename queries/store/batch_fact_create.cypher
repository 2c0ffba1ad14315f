// Write many fact versions and their VersionKey entries (a batch write; $rows is an Arrow table, endpoints matched in separate clauses).
LOAD FROM $rows
MATCH (s:Entity {id: subject})
MATCH (o:Entity {id: object})
CREATE (s)-[:Fact {id: version, predicate: predicate, valid_from: valid_from, valid_to: valid_to, recorded_at: recorded_at, superseded_at: superseded_at, episodes: episodes, supersedes: supersedes, superseded_by: superseded_by, created_by: created_by, closed_by: closed_by, reason: reason}]->(o)
CREATE (:VersionKey {id: version, subject: subject})
RETURN count(*)
