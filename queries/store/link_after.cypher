// The links made after $at: (version, episode) pairs not yet known at $at.
MATCH (l:Link) WHERE l.at > $at RETURN l.version, l.episode
