// Embedding vectors of versions and episodes, by their id, with the model that made them. Derived
// data for semantic search: not exported with the log; `graphmem embed` makes what is missing.
CREATE NODE TABLE IF NOT EXISTS Embedding(id STRING PRIMARY KEY, model STRING, vector FLOAT[])
