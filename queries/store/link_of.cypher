// The links made to one version after it was written, oldest first.
MATCH (l:Link) WHERE l.version = $version RETURN l.episode, l.at ORDER BY l.at, l.episode
