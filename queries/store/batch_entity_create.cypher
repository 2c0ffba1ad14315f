// Create many entities (a batch write; $rows is an Arrow table).
LOAD FROM $rows
CREATE (:Entity {id: id, name: name, kind: kind})
