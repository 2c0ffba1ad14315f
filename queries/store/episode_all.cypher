// Every episode, oldest reference time first.
MATCH (e:Episode) RETURN e.* ORDER BY e.reference_time, e.id
