// Store (or replace) the vectors of versions or episodes, made by $model.
UNWIND $rows AS r
MERGE (e:Embedding {id: r.id})
SET e.model = $model, e.vector = r.vector
