CREATE TABLE "decision_counts" (
	"advice_set_id" integer NOT NULL,
	"day" date NOT NULL,
	"node_id" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "decision_counts_advice_set_id_day_node_id_pk" PRIMARY KEY("advice_set_id","day","node_id")
);
--> statement-breakpoint
-- Kept as records are written (COPY and INSERT alike) and deleted (erasure, retention by owner). Statement triggers
-- with transition tables: one aggregate per batch of records, not one update per record.
CREATE FUNCTION decision_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO decision_counts (advice_set_id, day, node_id, count)
  SELECT advice_set_id, (received_at AT TIME ZONE 'UTC')::date, node_id, count(*)::int
  FROM added, unnest(array_prepend(''::text, advice_node_ids)) AS node_id
  GROUP BY 1, 2, 3
  ON CONFLICT (advice_set_id, day, node_id) DO UPDATE SET count = decision_counts.count + excluded.count;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION decision_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE decision_counts c SET count = c.count - g.n
  FROM (SELECT advice_set_id, (received_at AT TIME ZONE 'UTC')::date AS day, node_id, count(*)::int AS n
        FROM removed, unnest(array_prepend(''::text, advice_node_ids)) AS node_id GROUP BY 1, 2, 3) g
  WHERE c.advice_set_id = g.advice_set_id AND c.day = g.day AND c.node_id = g.node_id;
  DELETE FROM decision_counts WHERE count <= 0 AND advice_set_id IN (SELECT DISTINCT advice_set_id FROM removed);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER decision_counts_added AFTER INSERT ON decision_records REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION decision_counts_add();
--> statement-breakpoint
CREATE TRIGGER decision_counts_removed AFTER DELETE ON decision_records REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION decision_counts_remove();
--> statement-breakpoint
-- The records kept so far.
INSERT INTO decision_counts (advice_set_id, day, node_id, count)
SELECT advice_set_id, (received_at AT TIME ZONE 'UTC')::date, node_id, count(*)::int
FROM decision_records, unnest(array_prepend(''::text, advice_node_ids)) AS node_id
GROUP BY 1, 2, 3;
