// The write log: one row per write, with what it created and closed.
CREATE NODE TABLE IF NOT EXISTS Decision(id STRING PRIMARY KEY, op STRING, at TIMESTAMP, created STRING[], closed STRING[], episode STRING, reason STRING, proposal STRING)
