// Create many entities (a batch write).
UNWIND $rows AS r
CREATE (:Entity {id: r.id, name: r.name, kind: r.kind})
