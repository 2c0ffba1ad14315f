// The entities that the most facts believed at $as_of (at any valid time) are about, as their subject, most first;
// the alias facts ($alias) are not counted: they say who an entity is, not what is known of it.
MATCH (e:Entity)-[f:Fact]->(:Entity)
WHERE f.predicate <> $alias AND {{believed f $as_of}}
RETURN e.id, e.name, e.kind, count(*) AS facts
ORDER BY facts DESC, e.id
LIMIT $limit
