// How many versions have a body (every version): what a scan of every body reads.
MATCH (b:FactBody) RETURN count(*)
