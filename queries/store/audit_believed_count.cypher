// How many versions were believed at $at and valid at $at (a scan: one count).
MATCH ()-[f:Fact]->()
WHERE {{believed f $at}} AND f.valid_from <= $at AND f.valid_to > $at
RETURN count(*)
