// Every store setting and counter.
MATCH (m:Meta) RETURN m.key, m.value
