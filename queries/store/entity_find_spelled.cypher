// Entities whose id (the case-folded name) matches $pattern (a name with any accents on its letters:
// core/names.py's spelled_pattern), those matching $start (the same, from the id's first letter) first.
MATCH (e:Entity)
WHERE regexp_matches(e.id, $pattern)
RETURN e.*
ORDER BY CASE WHEN regexp_matches(e.id, $start) THEN 0 ELSE 1 END, size(e.id), e.id
LIMIT $limit
