-- Group commits run side by side on PostgreSQL (durable mode), and each one's statement trigger upserts the same count
-- rows (a set's day total at least). Upserted in whatever order the aggregate gave them, two commits could each lock a
-- row the other wanted next: PostgreSQL broke the deadlock by failing one, and its answers were refused (503). In key
-- order every commit takes the rows in the same order, so one waits for the other instead.
CREATE OR REPLACE FUNCTION decision_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO decision_counts (advice_set_id, day, node_id, count)
  SELECT advice_set_id, (received_at AT TIME ZONE 'UTC')::date, node_id, count(*)::int
  FROM added, unnest(array_prepend(''::text, advice_node_ids)) AS node_id
  GROUP BY 1, 2, 3
  ORDER BY 1, 2, 3
  ON CONFLICT (advice_set_id, day, node_id) DO UPDATE SET count = decision_counts.count + excluded.count;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Erasure and retention delete records while answers are written: their rows are locked in the same key order first.
CREATE OR REPLACE FUNCTION decision_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM decision_counts c
  JOIN (SELECT DISTINCT advice_set_id, (received_at AT TIME ZONE 'UTC')::date AS day, node_id
        FROM removed, unnest(array_prepend(''::text, advice_node_ids)) AS node_id) g
    ON c.advice_set_id = g.advice_set_id AND c.day = g.day AND c.node_id = g.node_id
  ORDER BY c.advice_set_id, c.day, c.node_id
  FOR UPDATE OF c;
  UPDATE decision_counts c SET count = c.count - g.n
  FROM (SELECT advice_set_id, (received_at AT TIME ZONE 'UTC')::date AS day, node_id, count(*)::int AS n
        FROM removed, unnest(array_prepend(''::text, advice_node_ids)) AS node_id GROUP BY 1, 2, 3) g
  WHERE c.advice_set_id = g.advice_set_id AND c.day = g.day AND c.node_id = g.node_id;
  DELETE FROM decision_counts WHERE count <= 0 AND advice_set_id IN (SELECT DISTINCT advice_set_id FROM removed);
  RETURN NULL;
END $$;
