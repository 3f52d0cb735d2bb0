CREATE TABLE "owner_scenario_counts" (
	"owner_id" text NOT NULL,
	"xact" bigint NOT NULL,
	"live" integer NOT NULL,
	"shared" integer NOT NULL,
	CONSTRAINT "owner_scenario_counts_owner_id_xact_pk" PRIMARY KEY("owner_id","xact")
);
--> statement-breakpoint
CREATE TABLE "set_scenario_counts" (
	"advice_set_id" integer PRIMARY KEY NOT NULL,
	"live" integer NOT NULL
);
--> statement-breakpoint
-- No scenario or set is written while the kept counts are made: the triggers below count every change after this
-- transaction, the backfill at its end counts every one before it.
LOCK TABLE advice_sets, advice_scenarios IN SHARE MODE;
--> statement-breakpoint
-- n live scenarios more (or fewer) for an owner, in shared sets too when `shared`: added to this transaction's own row,
-- which no other transaction writes, so scenario writers do not queue behind one row of their team.
CREATE FUNCTION owner_scenario_counts_add(owner text, n integer, shared boolean) RETURNS void LANGUAGE sql AS $$
  INSERT INTO owner_scenario_counts (owner_id, xact, live, shared) VALUES (owner, txid_current(), n, CASE WHEN shared THEN n ELSE 0 END)
  ON CONFLICT (owner_id, xact) DO UPDATE SET live = owner_scenario_counts.live + excluded.live, shared = owner_scenario_counts.shared + excluded.shared
$$;
--> statement-breakpoint
-- Live scenarios more (or fewer) in sets, as pairs of a set id and a number: added to the sets' count rows, and for the
-- live sets among them to their owners'. The count rows are taken (in set id order, as every writer takes them) before
-- the sets are read: a change of a set's liveness, sharing or owner takes its row first too, so one of the two waits
-- for the other and reads what it left (each statement here reads the latest committed rows). Without that order a
-- scenario made beside its set's deletion could be counted for the owner after the deletion took the set's scenarios
-- away.
CREATE FUNCTION set_scenario_counts_add(set_ids integer[], ns integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM set_scenario_counts WHERE advice_set_id = ANY (set_ids) ORDER BY advice_set_id FOR UPDATE;
  UPDATE set_scenario_counts k SET live = k.live + c.n FROM unnest(set_ids, ns) AS c (id, n) WHERE k.advice_set_id = c.id;
  INSERT INTO owner_scenario_counts (owner_id, xact, live, shared)
  SELECT s.owner_id, txid_current(), sum(c.n)::int, coalesce(sum(c.n) FILTER (WHERE s.is_public OR s.is_starter), 0)::int
  FROM unnest(set_ids, ns) AS c (id, n) JOIN advice_sets s ON s.id = c.id
  WHERE s.deleted_at IS NULL GROUP BY s.owner_id
  ON CONFLICT (owner_id, xact) DO UPDATE SET live = owner_scenario_counts.live + excluded.live, shared = owner_scenario_counts.shared + excluded.shared;
END $$;
--> statement-breakpoint
-- A scenario counts while it is live (deleted_at null), for its set. Once per statement, from the rows it wrote: a
-- trigger per row updated the same count rows once per scenario, and a transaction's many versions of one row made a
-- statement of 40,000 scenarios take 8.5 s instead of 0.4 (each update looks through the versions before it).
CREATE FUNCTION scenario_counts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  set_ids integer[];
  ns integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(advice_set_id ORDER BY advice_set_id), array_agg(n ORDER BY advice_set_id) INTO set_ids, ns
    FROM (SELECT advice_set_id, count(*)::int AS n FROM new_rows WHERE deleted_at IS NULL GROUP BY advice_set_id) AS c;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(advice_set_id ORDER BY advice_set_id), array_agg(n ORDER BY advice_set_id) INTO set_ids, ns
    FROM (SELECT advice_set_id, -count(*)::int AS n FROM old_rows WHERE deleted_at IS NULL GROUP BY advice_set_id) AS c;
  ELSE
    SELECT array_agg(advice_set_id ORDER BY advice_set_id), array_agg(n ORDER BY advice_set_id) INTO set_ids, ns
    FROM (SELECT advice_set_id, sum(d)::int AS n FROM (
      SELECT advice_set_id, -1 AS d FROM old_rows WHERE deleted_at IS NULL
      UNION ALL
      SELECT advice_set_id, 1 FROM new_rows WHERE deleted_at IS NULL
    ) AS change GROUP BY advice_set_id HAVING sum(d) <> 0) AS c;
  END IF;
  IF set_ids IS NOT NULL THEN
    PERFORM set_scenario_counts_add(set_ids, ns);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A set's scenarios count for its owner while the set is live, and as shared while it is also public or a starter.
-- The set's count row is made with the set; a change of liveness, sharing or owner takes it FOR UPDATE (see
-- set_scenario_counts_add), then takes its scenarios away from the old state and adds them to the new one.
CREATE FUNCTION set_scenario_counts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO set_scenario_counts (advice_set_id, live) VALUES (NEW.id, 0) ON CONFLICT (advice_set_id) DO NOTHING;
    RETURN NULL;
  END IF;
  SELECT live INTO n FROM set_scenario_counts WHERE advice_set_id = OLD.id FOR UPDATE;
  IF coalesce(n, 0) <> 0 THEN
    IF OLD.deleted_at IS NULL THEN
      PERFORM owner_scenario_counts_add(OLD.owner_id, -n, OLD.is_public OR OLD.is_starter);
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.deleted_at IS NULL THEN
      PERFORM owner_scenario_counts_add(NEW.owner_id, n, NEW.is_public OR NEW.is_starter);
    END IF;
  END IF;
  IF TG_OP = 'DELETE' THEN
    DELETE FROM set_scenario_counts WHERE advice_set_id = OLD.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER set_scenario_counts_created AFTER INSERT ON advice_sets FOR EACH ROW EXECUTE FUNCTION set_scenario_counts_changed();
--> statement-breakpoint
CREATE TRIGGER set_scenario_counts_removed AFTER DELETE ON advice_sets FOR EACH ROW EXECUTE FUNCTION set_scenario_counts_changed();
--> statement-breakpoint
CREATE TRIGGER set_scenario_counts_moved AFTER UPDATE OF deleted_at, is_public, is_starter, owner_id ON advice_sets FOR EACH ROW
WHEN ((OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) OR OLD.is_public <> NEW.is_public OR OLD.is_starter <> NEW.is_starter OR OLD.owner_id <> NEW.owner_id)
EXECUTE FUNCTION set_scenario_counts_changed();
--> statement-breakpoint
CREATE TRIGGER scenario_counts_created AFTER INSERT ON advice_scenarios REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION scenario_counts_changed();
--> statement-breakpoint
CREATE TRIGGER scenario_counts_removed AFTER DELETE ON advice_scenarios REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION scenario_counts_changed();
--> statement-breakpoint
-- Every update: a trigger with the rows' tables takes no column list. An edit that moves no scenario in or out of a set
-- leaves nothing to add (a few µs a row, read from the statement's own rows).
CREATE TRIGGER scenario_counts_moved AFTER UPDATE ON advice_scenarios REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION scenario_counts_changed();
--> statement-breakpoint
-- The sets and scenarios kept so far.
INSERT INTO set_scenario_counts (advice_set_id, live)
SELECT s.id, count(c.id)::int FROM advice_sets s LEFT JOIN advice_scenarios c ON c.advice_set_id = s.id AND c.deleted_at IS NULL GROUP BY s.id;
--> statement-breakpoint
INSERT INTO owner_scenario_counts (owner_id, xact, live, shared)
SELECT s.owner_id, 0, sum(k.live)::int, coalesce(sum(k.live) FILTER (WHERE s.is_public OR s.is_starter), 0)::int
FROM set_scenario_counts k JOIN advice_sets s ON s.id = k.advice_set_id WHERE s.deleted_at IS NULL GROUP BY s.owner_id;
