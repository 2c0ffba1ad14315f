// Record when an episode was linked to an existing version.
CREATE (:Link {id: $id, version: $version, episode: $episode, at: $at})
