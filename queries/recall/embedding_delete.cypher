// Remove the vectors of these ids (purged versions and episodes).
UNWIND $ids AS i
MATCH (e:Embedding {id: i})
DELETE e
