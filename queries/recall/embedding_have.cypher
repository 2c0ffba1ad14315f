// Which of these ids have a vector made by $model.
UNWIND $ids AS i
MATCH (e:Embedding {id: i})
WHERE e.model = $model
RETURN e.id
