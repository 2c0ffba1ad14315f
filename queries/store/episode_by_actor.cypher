// An episode said by this actor (as given, or compared in lower case), if any: whether the store ever heard of a
// speaker. (The engine's lower() and Python's differ on some letters: "ΟΔΥΣΣΕΥΣ", "İlker"; the name as given finds them.)
MATCH (e:Episode) WHERE e.actor = $name OR lower(e.actor) = $actor RETURN e.id LIMIT 1
