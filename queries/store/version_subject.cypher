// The subject and the body of a version, by the version's id (a primary-key lookup).
MATCH (k:FactBody {id: $id}) RETURN k.subject, {{body_columns k}}
