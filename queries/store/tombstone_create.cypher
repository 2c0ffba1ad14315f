// Record that something was purged, without its content.
CREATE (:Tombstone {id: $id, target: $target, at: $at, versions: $versions, episodes: $episodes, entities: $entities, proposals: $proposals})
