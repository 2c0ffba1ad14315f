// One version's body, by its id (a primary-key lookup).
MATCH (b:FactBody {id: $id})
RETURN {{body_columns b}}
