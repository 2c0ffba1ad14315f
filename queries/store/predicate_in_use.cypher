// How many versions use a predicate.
MATCH ()-[f:Fact]->() WHERE f.predicate = $name RETURN count(f)
