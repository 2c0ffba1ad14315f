// The ids that have a vector made by $model.
MATCH (e:Embedding) WHERE e.model = $model RETURN e.id
