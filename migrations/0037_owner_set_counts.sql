CREATE TABLE "owner_set_counts" (
	"owner_id" text PRIMARY KEY NOT NULL,
	"live" integer NOT NULL,
	"shared" integer NOT NULL
);
--> statement-breakpoint
-- A set counts for its owner while it is live (deleted_at null), and as shared while it is also public or a starter.
-- The trigger takes the old row's counts away and adds the new row's: it fires on creation and removal, and on an
-- update only when liveness, sharing or the owner changes (an edit bumps updated_at on every rule change).
CREATE FUNCTION owner_set_counts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL THEN
    INSERT INTO owner_set_counts (owner_id, live, shared)
    VALUES (OLD.owner_id, -1, CASE WHEN OLD.is_public OR OLD.is_starter THEN -1 ELSE 0 END)
    ON CONFLICT (owner_id) DO UPDATE SET live = owner_set_counts.live + excluded.live, shared = owner_set_counts.shared + excluded.shared;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL THEN
    INSERT INTO owner_set_counts (owner_id, live, shared)
    VALUES (NEW.owner_id, 1, CASE WHEN NEW.is_public OR NEW.is_starter THEN 1 ELSE 0 END)
    ON CONFLICT (owner_id) DO UPDATE SET live = owner_set_counts.live + excluded.live, shared = owner_set_counts.shared + excluded.shared;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER owner_set_counts_created AFTER INSERT ON advice_sets FOR EACH ROW WHEN (NEW.deleted_at IS NULL) EXECUTE FUNCTION owner_set_counts_changed();
--> statement-breakpoint
CREATE TRIGGER owner_set_counts_removed AFTER DELETE ON advice_sets FOR EACH ROW WHEN (OLD.deleted_at IS NULL) EXECUTE FUNCTION owner_set_counts_changed();
--> statement-breakpoint
CREATE TRIGGER owner_set_counts_moved AFTER UPDATE OF deleted_at, is_public, is_starter, owner_id ON advice_sets FOR EACH ROW
WHEN ((OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) OR OLD.is_public <> NEW.is_public OR OLD.is_starter <> NEW.is_starter OR OLD.owner_id <> NEW.owner_id)
EXECUTE FUNCTION owner_set_counts_changed();
--> statement-breakpoint
-- The sets kept so far.
INSERT INTO owner_set_counts (owner_id, live, shared)
SELECT owner_id, count(*)::int, (count(*) FILTER (WHERE is_public OR is_starter))::int FROM advice_sets WHERE deleted_at IS NULL GROUP BY owner_id;
