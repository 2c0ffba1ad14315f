// Every version's body key and subject (for `check`).
MATCH (k:FactBody) RETURN k.id, k.subject
