// Declare a predicate's kind.
MERGE (p:Predicate {name: $name}) SET p.kind = $kind
