// The episodes of versions by id ($rows is an Arrow table): a batch write's lookup after its keys' edges
// were read one key at a time (store/fact_believed).
LOAD FROM $rows
MATCH (b:FactBody {id: version})
RETURN b.id, b.episodes
