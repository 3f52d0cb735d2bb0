CREATE TABLE "tag_use_counts" (
	"tag_id" integer PRIMARY KEY NOT NULL,
	"advice_sets" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tag_use_counts" ADD CONSTRAINT "tag_use_counts_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A set counts for a tag while a link joins them (entity_type 'adviceset') and the set is live (deleted_at null). Links
-- are counted in statement triggers with transition tables (a merge or a bulk insert is one aggregate); a set's
-- deletion, restoring, removal or (late) creation moves all its links' counts in a row trigger that fires only then.
CREATE FUNCTION tag_use_counts_links_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO tag_use_counts (tag_id, advice_sets)
  SELECT a.tag_id, count(*)::int FROM added a JOIN advice_sets s ON s.id = a.entity_id AND s.deleted_at IS NULL
  WHERE a.entity_type = 'adviceset' GROUP BY a.tag_id
  ON CONFLICT (tag_id) DO UPDATE SET advice_sets = tag_use_counts.advice_sets + excluded.advice_sets;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION tag_use_counts_links_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tag_use_counts c SET advice_sets = c.advice_sets - g.n
  FROM (SELECT r.tag_id, count(*)::int AS n FROM removed r JOIN advice_sets s ON s.id = r.entity_id AND s.deleted_at IS NULL
        WHERE r.entity_type = 'adviceset' GROUP BY r.tag_id) g
  WHERE c.tag_id = g.tag_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Called only when the set's liveness changes (the triggers' WHEN clauses): +1 for each of its tags when it becomes
-- live (created live, restored), -1 when it stops being live (deleted, removed while live).
CREATE FUNCTION tag_use_counts_set_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  set_id integer := CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END;
  delta integer := CASE WHEN TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL THEN 1 ELSE -1 END;
BEGIN
  INSERT INTO tag_use_counts (tag_id, advice_sets)
  SELECT tag_id, delta * count(*)::int FROM tag_links WHERE entity_type = 'adviceset' AND entity_id = set_id GROUP BY tag_id
  ON CONFLICT (tag_id) DO UPDATE SET advice_sets = tag_use_counts.advice_sets + excluded.advice_sets;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tag_use_counts_links_added AFTER INSERT ON tag_links REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION tag_use_counts_links_added();
--> statement-breakpoint
CREATE TRIGGER tag_use_counts_links_removed AFTER DELETE ON tag_links REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION tag_use_counts_links_removed();
--> statement-breakpoint
-- A trigger may name one event when it has a transition table: an update is a removal and an addition.
CREATE TRIGGER tag_use_counts_links_moved_from AFTER UPDATE ON tag_links REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION tag_use_counts_links_removed();
--> statement-breakpoint
CREATE TRIGGER tag_use_counts_links_moved_to AFTER UPDATE ON tag_links REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION tag_use_counts_links_added();
--> statement-breakpoint
CREATE TRIGGER tag_use_counts_set_created AFTER INSERT ON advice_sets FOR EACH ROW WHEN (NEW.deleted_at IS NULL) EXECUTE FUNCTION tag_use_counts_set_changed();
--> statement-breakpoint
CREATE TRIGGER tag_use_counts_set_removed AFTER DELETE ON advice_sets FOR EACH ROW WHEN (OLD.deleted_at IS NULL) EXECUTE FUNCTION tag_use_counts_set_changed();
--> statement-breakpoint
CREATE TRIGGER tag_use_counts_set_trashed AFTER UPDATE OF deleted_at ON advice_sets FOR EACH ROW WHEN ((OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)) EXECUTE FUNCTION tag_use_counts_set_changed();
--> statement-breakpoint
-- The links kept so far.
INSERT INTO tag_use_counts (tag_id, advice_sets)
SELECT tl.tag_id, count(*)::int FROM tag_links tl JOIN advice_sets s ON s.id = tl.entity_id AND s.deleted_at IS NULL
WHERE tl.entity_type = 'adviceset' GROUP BY tl.tag_id;
