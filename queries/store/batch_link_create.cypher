// Record when episodes were linked to existing versions (a batch write; $rows is an Arrow table).
LOAD FROM $rows
CREATE (:Link {id: id, version: version, episode: episode, at: at})
