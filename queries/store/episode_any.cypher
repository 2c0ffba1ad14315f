// Any one episode: whether the store has heard anything at all.
MATCH (e:Episode) RETURN e.id LIMIT 1
