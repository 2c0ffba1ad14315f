// Forget the links of a purged version or to a purged episode.
MATCH (l:Link) WHERE l.version = $version OR l.episode = $episode DELETE l
