// Store settings and counters: timezone, latest write time, id sequences.
CREATE NODE TABLE IF NOT EXISTS Meta(key STRING PRIMARY KEY, value STRING)
