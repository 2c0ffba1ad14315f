// Every link made after its version was written, oldest first.
MATCH (l:Link) RETURN l.* ORDER BY l.at, l.version, l.episode
