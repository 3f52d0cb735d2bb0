-- Where a dictionary entry is used, found by an index instead of by reading and parsing every node of a team (issue 29
-- part 3: the dictionary of a team with 200,000 nodes took 21-24 s and 1.9 GB of memory; at 2,000,000 it would not fit
-- in the heap). Each node keeps the names it refers to (ref_keys) and the hash of the fields it read them from
-- (ref_hash). The names are trusted only while that hash is the fields' hash now: a write that does not refresh them
-- leaves the node stale, never wrong, and stale nodes are found by a small partial index, parsed again by readers and
-- filled in by the server (authoring/node-references.ts). After this upgrade every node is stale until then.
-- The dictionary lists a team's live entries, those limited to a set too, in name order: an index of its own.
CREATE FUNCTION rule_node_ref_hash(node_type text, expression text, variable text, headline text, body text, question text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN md5(coalesce(node_type, chr(30)) || chr(31) || coalesce(expression, chr(30)) || chr(31) || coalesce(variable, chr(30)) || chr(31)
  || coalesce(headline, chr(30)) || chr(31) || coalesce(body, chr(30)) || chr(31) || coalesce(question, chr(30)));--> statement-breakpoint
ALTER TABLE "rule_nodes" ADD COLUMN "ref_keys" text[];--> statement-breakpoint
ALTER TABLE "rule_nodes" ADD COLUMN "ref_hash" text;--> statement-breakpoint
CREATE INDEX "entities_owner_live_idx" ON "entities" USING btree ("owner_id",lower(reserved_name),"id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "rule_nodes_ref_keys_idx" ON "rule_nodes" USING gin ("ref_keys");--> statement-breakpoint
CREATE INDEX "rule_nodes_refs_stale_idx" ON "rule_nodes" USING btree ("id") WHERE ref_hash is distinct from rule_node_ref_hash(type, expression, variable, headline, text, question);
