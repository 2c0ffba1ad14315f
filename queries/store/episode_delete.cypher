// Purge an episode.
MATCH (e:Episode {id: $id}) DELETE e
