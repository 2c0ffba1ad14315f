// Episodes by id.
MATCH (e:Episode) WHERE e.id IN $ids RETURN e.*
