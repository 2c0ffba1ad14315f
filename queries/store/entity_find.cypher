// Entities whose id (the case-folded name) contains $text, those starting with it first.
MATCH (e:Entity)
WHERE e.id CONTAINS $text
RETURN e.id, e.name, e.kind, CASE WHEN starts_with(e.id, $text) THEN 0 ELSE 1 END AS rank
ORDER BY rank, size(e.id), e.id
LIMIT $limit
