// When each supporting episode was linked to a version after the version was written (a NOOP
// that cites a new episode): an answer as of T lists only the links made by T.
CREATE NODE TABLE IF NOT EXISTS Link(id STRING PRIMARY KEY, version STRING, episode STRING, at TIMESTAMP)
