// Entities whose id (the case-folded name) contains $text, those starting with it first.
MATCH (e:Entity)
WHERE e.id CONTAINS $text
RETURN e.*
ORDER BY CASE WHEN starts_with(e.id, $text) THEN 0 ELSE 1 END, size(e.id), e.id
LIMIT $limit
