// Versions believed at $as_of, whatever their valid time, one column per field;
// the closing's columns kept in the body left unread (a believed version's closing is not yet
// known: the reader fills them in as open); the ends by their place in the Entity table
// (store/entity_columns names them: projecting three texts of each end per row cost more than
// the rest of the read).
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE {{believed f $as_of}}
MATCH (b:FactBody {id: f.id})
RETURN offset(id(s)) AS subject_at, offset(id(o)) AS object_at, {{believed_columns f b}}
