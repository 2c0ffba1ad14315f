// The episodes of one kind holding exactly this text (a remember call repeated: its message is held already).
MATCH (e:Episode) WHERE e.kind = $kind AND e.text = $text RETURN e.* ORDER BY e.id
