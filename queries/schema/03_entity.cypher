// Entities: people, places, things and literal values.
CREATE NODE TABLE IF NOT EXISTS Entity(id STRING PRIMARY KEY, name STRING, kind STRING)
