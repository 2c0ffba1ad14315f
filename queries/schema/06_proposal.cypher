// The review queue: facts proposed by extractors, pending, approved or rejected.
CREATE NODE TABLE IF NOT EXISTS Proposal(id STRING PRIMARY KEY, op STRING, subject STRING, predicate STRING, object STRING, valid_from TIMESTAMP, valid_to TIMESTAMP, episode STRING, quote STRING, source STRING, proposed_at TIMESTAMP, state STRING, decided_at TIMESTAMP, reason STRING, decision STRING)
