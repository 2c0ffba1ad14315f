// The bodies of versions by id: one primary-key lookup each on ladybug, a scan of every body on
// kuzu (see read/questions.py bodies). Reads that find a few edges fetch
// their bodies so; joining on f.id instead lets an engine scan every body (ladybug does).
// The columns by name: a whole node comes back as a dict of every property, slower to make.
UNWIND $ids AS i
MATCH (b:FactBody {id: i})
RETURN b.id, {{body_columns b}}
