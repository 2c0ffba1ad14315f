// The tables of a store made by the release before the Fact layout change (schema 3), in load order of their files.
CREATE NODE TABLE IF NOT EXISTS Decision(id STRING PRIMARY KEY, op STRING, at TIMESTAMP, created STRING[], closed STRING[], episode STRING, reason STRING, proposal STRING);
CREATE NODE TABLE IF NOT EXISTS Embedding(id STRING PRIMARY KEY, model STRING, vector FLOAT[]);
CREATE NODE TABLE IF NOT EXISTS Entity(id STRING PRIMARY KEY, name STRING, kind STRING);
CREATE NODE TABLE IF NOT EXISTS Episode(id STRING PRIMARY KEY, kind STRING, text STRING, actor STRING, reference_time TIMESTAMP, received_at TIMESTAMP);
CREATE REL TABLE IF NOT EXISTS Fact(FROM Entity TO Entity, id STRING, predicate STRING, valid_from TIMESTAMP, valid_to TIMESTAMP, recorded_at TIMESTAMP, superseded_at TIMESTAMP, episodes STRING[], supersedes STRING[], superseded_by STRING[], created_by STRING, closed_by STRING, reason STRING);
CREATE NODE TABLE IF NOT EXISTS Link(id STRING PRIMARY KEY, version STRING, episode STRING, at TIMESTAMP);
CREATE NODE TABLE IF NOT EXISTS Meta(key STRING PRIMARY KEY, value STRING);
CREATE NODE TABLE IF NOT EXISTS Predicate(name STRING PRIMARY KEY, kind STRING);
CREATE NODE TABLE IF NOT EXISTS Proposal(id STRING PRIMARY KEY, op STRING, subject STRING, predicate STRING, object STRING, valid_from TIMESTAMP, valid_to TIMESTAMP, episode STRING, quote STRING, source STRING, proposed_at TIMESTAMP, state STRING, decided_at TIMESTAMP, reason STRING, decision STRING);
CREATE NODE TABLE IF NOT EXISTS Tombstone(id STRING PRIMARY KEY, target STRING, at TIMESTAMP, versions STRING[], episodes STRING[], entities INT64, proposals INT64);
CREATE NODE TABLE IF NOT EXISTS VersionKey(id STRING PRIMARY KEY, subject STRING);
