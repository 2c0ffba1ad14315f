// Episodes: immutable source material with its exact text.
CREATE NODE TABLE IF NOT EXISTS Episode(id STRING PRIMARY KEY, kind STRING, text STRING, actor STRING, reference_time TIMESTAMP, received_at TIMESTAMP)
