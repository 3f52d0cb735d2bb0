-- Decision records take less room (issue 26's target: 400 bytes a record on disk, indexes included). The inputs and
-- the outcome become json (text kept as written, without jsonb's per-key overhead); the outcome takes a compact
-- positional form (src/db/schema/decision-outcome.ts), into which the records already kept are rewritten here; the
-- set index becomes ascending, so that new records fill its pages instead of splitting them to half full; the GIN
-- indexes lose their pending list (fastupdate), whose entries are kept uncompressed; records with errors get an index
-- of their own.
DROP INDEX "decision_records_set_idx";--> statement-breakpoint
DROP INDEX "decision_records_personal_idx";--> statement-breakpoint
DROP INDEX "decision_records_advice_idx";--> statement-breakpoint
ALTER TABLE "decision_records" ALTER COLUMN "inputs" SET DATA TYPE json USING "inputs"::json;--> statement-breakpoint
CREATE FUNCTION decision_outcome_items_0029(o jsonb, kind text) RETURNS json LANGUAGE sql IMMUTABLE AS $$
  SELECT json_agg(CASE WHEN i->>'customHeadline' IS NOT NULL THEN json_build_array(i->>'nodeId', i->'path', i->>'customHeadline')
    ELSE json_build_array(i->>'nodeId', i->'path') END ORDER BY n)
  FROM jsonb_array_elements(o->'items') WITH ORDINALITY AS t(i, n) WHERE i->>'group' = kind
$$;--> statement-breakpoint
CREATE FUNCTION decision_outcome_compact_0029(o jsonb) RETURNS json LANGUAGE sql IMMUTABLE AS $$
  SELECT json_strip_nulls(json_build_object(
    'a', decision_outcome_items_0029(o, 'advice'),
    's', decision_outcome_items_0029(o, 'assumptions'),
    'x', decision_outcome_items_0029(o, 'examples'),
    'e', (SELECT json_agg(CASE WHEN e->>'variable' IS NOT NULL THEN json_build_array(e->>'nodeId', e->>'code', e->>'message', e->>'variable')
      ELSE json_build_array(e->>'nodeId', e->>'code', e->>'message') END ORDER BY n)
      FROM jsonb_array_elements(o->'errors') WITH ORDINALITY AS t(e, n)),
    'q', CASE WHEN o->'question' IS NOT NULL THEN json_build_array(o->'question'->>'nodeId', o->'question'->>'variable', o->'question'->'path') END))
$$;--> statement-breakpoint
ALTER TABLE "decision_records" ALTER COLUMN "outcome" SET DATA TYPE json USING decision_outcome_compact_0029("outcome");--> statement-breakpoint
DROP FUNCTION decision_outcome_compact_0029(jsonb);--> statement-breakpoint
DROP FUNCTION decision_outcome_items_0029(jsonb, text);--> statement-breakpoint
CREATE INDEX "decision_records_set_idx" ON "decision_records" USING btree ("advice_set_id","received_at","id");--> statement-breakpoint
CREATE INDEX "decision_records_personal_idx" ON "decision_records" USING gin ("personal_hashes") WITH (fastupdate=false) WHERE personal_hashes <> '{}'::text[];--> statement-breakpoint
CREATE INDEX "decision_records_advice_idx" ON "decision_records" USING gin ("advice_node_ids") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "decision_records_errors_idx" ON "decision_records" USING btree ("advice_set_id","received_at","id") WHERE has_errors;
