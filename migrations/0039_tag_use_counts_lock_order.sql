-- As 0038 did for the decision counts: transactions tagging or untagging sets at once (two admins in the bulk editor)
-- upserted the same tags' count rows in whatever order the aggregate gave them, and PostgreSQL failed one of two that
-- deadlocked. In tag order every statement takes the rows in the same order, so one waits for the other instead.
CREATE OR REPLACE FUNCTION tag_use_counts_links_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO tag_use_counts (tag_id, advice_sets)
  SELECT a.tag_id, count(*)::int FROM added a JOIN advice_sets s ON s.id = a.entity_id AND s.deleted_at IS NULL
  WHERE a.entity_type = 'adviceset' GROUP BY a.tag_id
  ORDER BY a.tag_id
  ON CONFLICT (tag_id) DO UPDATE SET advice_sets = tag_use_counts.advice_sets + excluded.advice_sets;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tag_use_counts_links_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM tag_use_counts c
  WHERE c.tag_id IN (SELECT r.tag_id FROM removed r WHERE r.entity_type = 'adviceset')
  ORDER BY c.tag_id
  FOR UPDATE OF c;
  UPDATE tag_use_counts c SET advice_sets = c.advice_sets - g.n
  FROM (SELECT r.tag_id, count(*)::int AS n FROM removed r JOIN advice_sets s ON s.id = r.entity_id AND s.deleted_at IS NULL
        WHERE r.entity_type = 'adviceset' GROUP BY r.tag_id) g
  WHERE c.tag_id = g.tag_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A row trigger: one set's tags in order. (A statement changing several sets still takes each set's tags in turn.)
CREATE OR REPLACE FUNCTION tag_use_counts_set_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  set_id integer := CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END;
  delta integer := CASE WHEN TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL THEN 1 ELSE -1 END;
BEGIN
  INSERT INTO tag_use_counts (tag_id, advice_sets)
  SELECT tag_id, delta * count(*)::int FROM tag_links WHERE entity_type = 'adviceset' AND entity_id = set_id GROUP BY tag_id
  ORDER BY tag_id
  ON CONFLICT (tag_id) DO UPDATE SET advice_sets = tag_use_counts.advice_sets + excluded.advice_sets;
  RETURN NULL;
END $$;
