// Every vector made by $model.
MATCH (e:Embedding) WHERE e.model = $model RETURN e.id AS id, e.vector AS vector
