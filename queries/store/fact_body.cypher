// One version's body, by its id (a primary-key lookup): the columns kept apart, in their declared order.
MATCH (b:FactBody {id: $id})
RETURN {{body_columns b}}
