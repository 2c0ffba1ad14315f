// Versions believed at $as_of, whatever their valid time, one column per field.
MATCH (s:Entity)-[f:Fact]->(o:Entity)
WHERE {{believed f $as_of}}
MATCH (b:FactBody {id: f.id})
RETURN s.id AS subject_id, s.name AS subject, s.kind AS subject_kind, o.id AS object_id, o.name AS object, o.kind AS object_kind, {{fact_columns f b}}
