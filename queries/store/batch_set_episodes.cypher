// Set the supporting episodes of many versions (a batch write's links; $rows is an Arrow table).
LOAD FROM $rows
MATCH (s:Entity {id: subject})
MATCH (s)-[f:Fact]->()
WHERE f.id = version
MATCH (b:FactBody {id: f.id})
SET b.episodes = linked
RETURN f.id
