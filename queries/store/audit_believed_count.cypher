// How many versions were believed at $at and valid at $at (a scan: one count).
MATCH ()-[f:Fact]->()
WHERE f.recorded_at <= $at AND f.superseded_at > $at AND f.valid_from <= $at AND f.valid_to > $at
RETURN count(*)
