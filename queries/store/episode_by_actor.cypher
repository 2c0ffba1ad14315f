// An episode said by this actor (compared in lower case), if any: whether the store ever heard of a speaker.
MATCH (e:Episode) WHERE lower(e.actor) = $actor RETURN e.id LIMIT 1
