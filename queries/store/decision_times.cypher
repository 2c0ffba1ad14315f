// When each write that changed belief (created or closed a version, or purged) happened, oldest first.
MATCH (d:Decision)
WHERE size(d.created) > 0 OR size(d.closed) > 0 OR d.op = 'PURGE'
RETURN d.at ORDER BY d.at
