CREATE TABLE "node_reference_counts" (
	"target" text NOT NULL,
	"owner_id" text NOT NULL,
	"uses" integer NOT NULL,
	CONSTRAINT "node_reference_counts_target_owner_id_pk" PRIMARY KEY("target","owner_id")
);
--> statement-breakpoint
-- Issue 29 part 3: a variable that 500,000 nodes of a big team use took the dictionary 1.0-1.6 s to count (the index
-- gave the nodes, each was checked and counted per rule). Now the counts are kept per owner and target: a node counts
-- while it, its rule and its set are live and its stored names are trusted (0041), once for each target it refers
-- to. Statement triggers with transition tables keep them as nodes, rules and sets change (the filler's fill too).
-- A node's change and its rule's or set's removal (or transfer) at once must not both count the same node: every
-- writer of nodes holds the node's rule row (FOR SHARE: nodeUpdate; FOR UPDATE: a new, moved or deleted node) from
-- before its write, a rule's removal updates that row, and a set's removal or transfer locks the set's rules (in id
-- order) before it counts; whichever comes second reads what the first committed. No writer of nodes waits for the set
-- row (the "updated" mark skips it when locked), so none of this waits in the other order. Counts are upserted in
-- (target, owner) order, so two statements take their rows in the same order.
CREATE FUNCTION rule_node_ref_targets(keys text[]) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT DISTINCT t FROM unnest(keys) AS k,
    unnest(CASE WHEN k LIKE 'bare:%' THEN ARRAY['variable:' || substr(k, 6), 'formula:' || substr(k, 6)] ELSE ARRAY[k] END) AS t
$$;
--> statement-breakpoint
-- What a rule's nodes count for while the rule and its set are live: each live, trusted node's targets.
CREATE FUNCTION rule_counted_targets(rule integer) RETURNS SETOF text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT t FROM rule_nodes n CROSS JOIN LATERAL rule_node_ref_targets(n.ref_keys) AS t
  WHERE n.rule_id = rule AND n.deleted_at IS NULL
    AND n.ref_hash = rule_node_ref_hash(n.type, n.expression, n.variable, n.headline, n.text, n.question)
$$;
--> statement-breakpoint
-- Adds one change per (target, owner, delta) given, in (target, owner) order.
CREATE FUNCTION node_reference_counts_add(targets text[], owners text[], deltas integer[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO node_reference_counts (target, owner_id, uses)
  SELECT target, owner_id, sum(delta)::int FROM unnest(targets, owners, deltas) AS c(target, owner_id, delta)
  GROUP BY 1, 2 HAVING sum(delta) <> 0 ORDER BY 1, 2
  ON CONFLICT (target, owner_id) DO UPDATE SET uses = node_reference_counts.uses + excluded.uses
$$;
--> statement-breakpoint
-- What a node counts for, and for which owner: its targets while it, its rule and its set are live and it is trusted.
CREATE FUNCTION node_counted_targets(n rule_nodes) RETURNS TABLE (target text, owner_id text) LANGUAGE sql STABLE AS $$
  SELECT t, s.owner_id FROM rules r JOIN advice_sets s ON s.id = r.advice_set_id AND s.deleted_at IS NULL
    CROSS JOIN LATERAL rule_node_ref_targets(n.ref_keys) AS t
  WHERE r.id = n.rule_id AND r.deleted_at IS NULL AND n.deleted_at IS NULL
    AND n.ref_hash = rule_node_ref_hash(n.type, n.expression, n.variable, n.headline, n.text, n.question)
$$;
--> statement-breakpoint
-- Nodes added, removed or changed: what the old rows counted goes, what the new rows count comes, in one upsert (an
-- edit that keeps a name leaves its row alone). Each branch reads only the transition tables its trigger has.
CREATE FUNCTION node_reference_counts_nodes_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM node_reference_counts_add(array_agg(c.target), array_agg(c.owner_id), array_agg(1)) FROM new_nodes n, node_counted_targets(n) c;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM node_reference_counts_add(array_agg(c.target), array_agg(c.owner_id), array_agg(-1)) FROM old_nodes n, node_counted_targets(n) c;
  -- Transition tables allow no column list: a move (position, parent) or a touch (updated_at) ends here.
  ELSIF EXISTS (
    SELECT 1 FROM old_nodes o JOIN new_nodes n ON n.id = o.id
    WHERE (o.rule_id, o.deleted_at, o.ref_keys, o.ref_hash, o.type, o.expression, o.variable, o.headline, o.text, o.question)
      IS DISTINCT FROM (n.rule_id, n.deleted_at, n.ref_keys, n.ref_hash, n.type, n.expression, n.variable, n.headline, n.text, n.question)
  ) THEN
    PERFORM node_reference_counts_add(array_agg(target), array_agg(owner_id), array_agg(delta)) FROM (
      SELECT c.target, c.owner_id, -1 AS delta FROM old_nodes n, node_counted_targets(n) c
      UNION ALL SELECT c.target, c.owner_id, 1 FROM new_nodes n, node_counted_targets(n) c
    ) AS changes;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER node_reference_counts_nodes_added AFTER INSERT ON rule_nodes REFERENCING NEW TABLE AS new_nodes
FOR EACH STATEMENT EXECUTE FUNCTION node_reference_counts_nodes_changed();
--> statement-breakpoint
CREATE TRIGGER node_reference_counts_nodes_removed AFTER DELETE ON rule_nodes REFERENCING OLD TABLE AS old_nodes
FOR EACH STATEMENT EXECUTE FUNCTION node_reference_counts_nodes_changed();
--> statement-breakpoint
CREATE TRIGGER node_reference_counts_nodes_updated AFTER UPDATE ON rule_nodes
REFERENCING OLD TABLE AS old_nodes NEW TABLE AS new_nodes
FOR EACH STATEMENT EXECUTE FUNCTION node_reference_counts_nodes_changed();
--> statement-breakpoint
-- A rule removed or restored (or moved to another set): its live, trusted nodes leave or join their set's owner.
CREATE FUNCTION node_reference_counts_rules_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM node_reference_counts_add(array_agg(t.target), array_agg(s.owner_id), array_agg(CASE WHEN c.gone THEN -1 ELSE 1 END))
  FROM old_rules o JOIN new_rules r ON r.id = o.id
    -- gone: counted with its old set, no longer; came: not counted, now with its new set. A rename, a reorder or a touch
    -- (updated_at, on every edit of the rule's nodes) is neither.
    CROSS JOIN LATERAL (VALUES (true, o.advice_set_id), (false, r.advice_set_id)) AS c(gone, advice_set_id)
    JOIN advice_sets s ON s.id = c.advice_set_id AND s.deleted_at IS NULL
    CROSS JOIN LATERAL rule_counted_targets(r.id) AS t(target)
  WHERE ((o.deleted_at IS NULL) <> (r.deleted_at IS NULL) OR o.advice_set_id <> r.advice_set_id)
    AND CASE WHEN c.gone THEN o.deleted_at IS NULL ELSE r.deleted_at IS NULL END;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER node_reference_counts_rules_updated AFTER UPDATE ON rules
REFERENCING OLD TABLE AS old_rules NEW TABLE AS new_rules
FOR EACH STATEMENT EXECUTE FUNCTION node_reference_counts_rules_changed();
--> statement-breakpoint
-- A set removed, restored or transferred: the nodes of its live rules leave one owner or join one.
CREATE FUNCTION node_reference_counts_sets_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- An edit of a set's fields or a touch (updated_at, on every edit of its rules) ends here.
  IF NOT EXISTS (
    SELECT 1 FROM old_sets o JOIN new_sets s ON s.id = o.id
    WHERE (o.deleted_at IS NULL) <> (s.deleted_at IS NULL) OR o.owner_id <> s.owner_id
  ) THEN
    RETURN NULL;
  END IF;
  -- Writers of the set's nodes hold their rule's row (FOR SHARE or more) from before their write to their commit: this
  -- waits for those under way, and those after wait for this, then find the set gone or moved.
  PERFORM 1 FROM rules WHERE advice_set_id IN (
    SELECT o.id FROM old_sets o JOIN new_sets s ON s.id = o.id WHERE (o.deleted_at IS NULL) <> (s.deleted_at IS NULL) OR o.owner_id <> s.owner_id
  ) ORDER BY id FOR NO KEY UPDATE;
  PERFORM node_reference_counts_add(array_agg(t.target), array_agg(c.owner_id), array_agg(CASE WHEN c.gone THEN -1 ELSE 1 END))
  FROM old_sets o JOIN new_sets s ON s.id = o.id
    -- gone: counted for its old owner, no longer; came: not counted, now for its new owner.
    CROSS JOIN LATERAL (VALUES (true, o.owner_id, o.deleted_at IS NULL), (false, s.owner_id, s.deleted_at IS NULL)) AS c(gone, owner_id, live)
    JOIN rules r ON r.advice_set_id = s.id AND r.deleted_at IS NULL
    CROSS JOIN LATERAL rule_counted_targets(r.id) AS t(target)
  WHERE ((o.deleted_at IS NULL) <> (s.deleted_at IS NULL) OR o.owner_id <> s.owner_id) AND c.live;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER node_reference_counts_sets_updated AFTER UPDATE ON advice_sets
REFERENCING OLD TABLE AS old_sets NEW TABLE AS new_sets
FOR EACH STATEMENT EXECUTE FUNCTION node_reference_counts_sets_changed();
--> statement-breakpoint
-- The nodes filled in so far (after 0041 every node was stale; the filler's fill from now on is counted as it goes).
INSERT INTO node_reference_counts (target, owner_id, uses)
SELECT t.target, s.owner_id, count(*)::int
FROM advice_sets s JOIN rules r ON r.advice_set_id = s.id AND r.deleted_at IS NULL CROSS JOIN LATERAL rule_counted_targets(r.id) AS t(target)
WHERE s.deleted_at IS NULL
GROUP BY 1, 2;
