// Every predicate some version uses, declared or not.
MATCH ()-[f:Fact]->() RETURN DISTINCT f.predicate AS predicate ORDER BY predicate
