// Rewrite an episode's text and actor with a purged name taken out (the one write that changes recorded text).
MATCH (e:Episode {id: $id}) SET e.text = $text, e.actor = $actor
