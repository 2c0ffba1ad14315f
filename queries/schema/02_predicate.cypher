// Declared predicates and their kind (one, many, event).
CREATE NODE TABLE IF NOT EXISTS Predicate(name STRING PRIMARY KEY, kind STRING)
