// Rewrite a proposal's quote and reason with a purged name taken out.
MATCH (p:Proposal {id: $id}) SET p.quote = $quote, p.reason = $reason
