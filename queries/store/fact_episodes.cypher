// The supporting episodes of versions by id (the write gate's, for a key's believed versions).
UNWIND $ids AS i
MATCH (b:FactBody {id: i})
RETURN b.id, b.episodes
