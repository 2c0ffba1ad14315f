// Set one store setting or counter.
MERGE (m:Meta {key: $key}) SET m.value = $value
