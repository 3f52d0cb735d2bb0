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
CREATE FUNCTION node_reference_counts_nodes_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO node_reference_counts (target, owner_id, uses)
    SELECT t.target, s.owner_id, count(*)::int
    FROM new_nodes n JOIN rules r ON r.id = n.rule_id AND r.deleted_at IS NULL JOIN advice_sets s ON s.id = r.advice_set_id AND s.deleted_at IS NULL
      CROSS JOIN LATERAL rule_node_ref_targets(n.ref_keys) AS t(target)
    WHERE n.deleted_at IS NULL AND n.ref_hash = rule_node_ref_hash(n.type, n.expression, n.variable, n.headline, n.text, n.question)
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (target, owner_id) DO UPDATE SET uses = node_reference_counts.uses + excluded.uses;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO node_reference_counts (target, owner_id, uses)
    SELECT t.target, s.owner_id, -count(*)::int
    FROM old_nodes n JOIN rules r ON r.id = n.rule_id AND r.deleted_at IS NULL JOIN advice_sets s ON s.id = r.advice_set_id AND s.deleted_at IS NULL
      CROSS JOIN LATERAL rule_node_ref_targets(n.ref_keys) AS t(target)
    WHERE n.deleted_at IS NULL AND n.ref_hash = rule_node_ref_hash(n.type, n.expression, n.variable, n.headline, n.text, n.question)
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (target, owner_id) DO UPDATE SET uses = node_reference_counts.uses + excluded.uses;
  ELSE
    -- Transition tables allow no column list: a move (position, parent) or a touch (updated_at) ends here.
    IF NOT EXISTS (
      SELECT 1 FROM old_nodes o JOIN new_nodes n ON n.id = o.id
      WHERE (o.rule_id, o.deleted_at, o.ref_keys, o.ref_hash, o.type, o.expression, o.variable, o.headline, o.text, o.question)
        IS DISTINCT FROM (n.rule_id, n.deleted_at, n.ref_keys, n.ref_hash, n.type, n.expression, n.variable, n.headline, n.text, n.question)
    ) THEN
      RETURN NULL;
    END IF;
    INSERT INTO node_reference_counts (target, owner_id, uses)
    SELECT target, owner_id, sum(delta)::int FROM (
      SELECT t.target, s.owner_id, -1 AS delta
      FROM old_nodes n JOIN rules r ON r.id = n.rule_id AND r.deleted_at IS NULL JOIN advice_sets s ON s.id = r.advice_set_id AND s.deleted_at IS NULL
        CROSS JOIN LATERAL rule_node_ref_targets(n.ref_keys) AS t(target)
      WHERE n.deleted_at IS NULL AND n.ref_hash = rule_node_ref_hash(n.type, n.expression, n.variable, n.headline, n.text, n.question)
      UNION ALL
      SELECT t.target, s.owner_id, 1
      FROM new_nodes n JOIN rules r ON r.id = n.rule_id AND r.deleted_at IS NULL JOIN advice_sets s ON s.id = r.advice_set_id AND s.deleted_at IS NULL
        CROSS JOIN LATERAL rule_node_ref_targets(n.ref_keys) AS t(target)
      WHERE n.deleted_at IS NULL AND n.ref_hash = rule_node_ref_hash(n.type, n.expression, n.variable, n.headline, n.text, n.question)
    ) AS changes
    GROUP BY 1, 2 HAVING sum(delta) <> 0 ORDER BY 1, 2
    ON CONFLICT (target, owner_id) DO UPDATE SET uses = node_reference_counts.uses + excluded.uses;
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
  -- A rename, a reorder or a touch (updated_at, on every edit of the rule's nodes) ends here.
  IF NOT EXISTS (
    SELECT 1 FROM old_rules o JOIN new_rules r ON r.id = o.id
    WHERE (o.deleted_at IS NULL) <> (r.deleted_at IS NULL) OR o.advice_set_id <> r.advice_set_id
  ) THEN
    RETURN NULL;
  END IF;
  INSERT INTO node_reference_counts (target, owner_id, uses)
  SELECT target, owner_id, sum(delta)::int FROM (
    SELECT t.target, s.owner_id, -1 AS delta
    FROM old_rules o JOIN new_rules r ON r.id = o.id JOIN advice_sets s ON s.id = o.advice_set_id AND s.deleted_at IS NULL
      JOIN rule_nodes n ON n.rule_id = o.id AND n.deleted_at IS NULL
        AND n.ref_hash = rule_node_ref_hash(n.type, n.expression, n.variable, n.headline, n.text, n.question)
      CROSS JOIN LATERAL rule_node_ref_targets(n.ref_keys) AS t(target)
    WHERE o.deleted_at IS NULL AND (r.deleted_at IS NOT NULL OR r.advice_set_id <> o.advice_set_id)
    UNION ALL
    SELECT t.target, s.owner_id, 1
    FROM new_rules r JOIN old_rules o ON o.id = r.id JOIN advice_sets s ON s.id = r.advice_set_id AND s.deleted_at IS NULL
      JOIN rule_nodes n ON n.rule_id = r.id AND n.deleted_at IS NULL
        AND n.ref_hash = rule_node_ref_hash(n.type, n.expression, n.variable, n.headline, n.text, n.question)
      CROSS JOIN LATERAL rule_node_ref_targets(n.ref_keys) AS t(target)
    WHERE r.deleted_at IS NULL AND (o.deleted_at IS NOT NULL OR r.advice_set_id <> o.advice_set_id)
  ) AS changes
  GROUP BY 1, 2 HAVING sum(delta) <> 0 ORDER BY 1, 2
  ON CONFLICT (target, owner_id) DO UPDATE SET uses = node_reference_counts.uses + excluded.uses;
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
  INSERT INTO node_reference_counts (target, owner_id, uses)
  SELECT target, owner_id, sum(delta)::int FROM (
    SELECT t.target, o.owner_id, -1 AS delta
    FROM old_sets o JOIN new_sets s ON s.id = o.id
      JOIN rules r ON r.advice_set_id = o.id AND r.deleted_at IS NULL
      JOIN rule_nodes n ON n.rule_id = r.id AND n.deleted_at IS NULL
        AND n.ref_hash = rule_node_ref_hash(n.type, n.expression, n.variable, n.headline, n.text, n.question)
      CROSS JOIN LATERAL rule_node_ref_targets(n.ref_keys) AS t(target)
    WHERE o.deleted_at IS NULL AND (s.deleted_at IS NOT NULL OR s.owner_id <> o.owner_id)
    UNION ALL
    SELECT t.target, s.owner_id, 1
    FROM new_sets s JOIN old_sets o ON o.id = s.id
      JOIN rules r ON r.advice_set_id = s.id AND r.deleted_at IS NULL
      JOIN rule_nodes n ON n.rule_id = r.id AND n.deleted_at IS NULL
        AND n.ref_hash = rule_node_ref_hash(n.type, n.expression, n.variable, n.headline, n.text, n.question)
      CROSS JOIN LATERAL rule_node_ref_targets(n.ref_keys) AS t(target)
    WHERE s.deleted_at IS NULL AND (o.deleted_at IS NOT NULL OR s.owner_id <> o.owner_id)
  ) AS changes
  GROUP BY 1, 2 HAVING sum(delta) <> 0 ORDER BY 1, 2
  ON CONFLICT (target, owner_id) DO UPDATE SET uses = node_reference_counts.uses + excluded.uses;
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
FROM rule_nodes n JOIN rules r ON r.id = n.rule_id AND r.deleted_at IS NULL JOIN advice_sets s ON s.id = r.advice_set_id AND s.deleted_at IS NULL
  CROSS JOIN LATERAL rule_node_ref_targets(n.ref_keys) AS t(target)
WHERE n.deleted_at IS NULL AND n.ref_hash = rule_node_ref_hash(n.type, n.expression, n.variable, n.headline, n.text, n.question)
GROUP BY 1, 2;
