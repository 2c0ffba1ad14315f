// Content-free records of purges.
CREATE NODE TABLE IF NOT EXISTS Tombstone(id STRING PRIMARY KEY, target STRING, at TIMESTAMP, versions STRING[], episodes STRING[], entities INT64, proposals INT64)
