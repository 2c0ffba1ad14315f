// Every entity's id, name and kind beside its place in the Entity table (offset(id(e))),
// which the whole-store reads return for a fact's ends instead of the ends' texts.
MATCH (e:Entity) RETURN offset(id(e)) AS at, e.id AS id, e.name AS name, e.kind AS kind
