// Set the supporting episodes of many versions (a batch write's links; $rows is an Arrow table): each body by its key.
LOAD FROM $rows
MATCH (b:FactBody {id: version})
WHERE b.subject = subject
SET b.episodes = linked
RETURN b.id
