ALTER TABLE "rules" ADD COLUMN "key" text DEFAULT substr(md5(random()::text || clock_timestamp()::text), 1, 16) NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "rules_live_key_idx" ON "rules" USING btree ("advice_set_id","key") WHERE deleted_at is null;--> statement-breakpoint
-- Backfill (edited by hand). The volatile default above gave every existing rule its own key. Published snapshots
-- hold rules too, each by its row id; they take that row's key, as node keys did in 0025, so versions made before
-- rule keys existed pair with the draft by key. A rule whose row cannot be found keeps no key.
CREATE FUNCTION "advice_studio_keyed_rule_list"(rules jsonb) RETURNS jsonb LANGUAGE sql AS $$
  SELECT coalesce(jsonb_agg(
    CASE WHEN jsonb_typeof(r) = 'object' AND NOT r ? 'key' AND coalesce(r->>'id', '') ~ '^[0-9]{1,9}$'
           AND EXISTS (SELECT 1 FROM "rules" WHERE "id" = (r->>'id')::int)
      THEN r || jsonb_build_object('key', (SELECT "key" FROM "rules" WHERE "id" = (r->>'id')::int))
      ELSE r END
    ORDER BY ord), '[]'::jsonb)
  FROM jsonb_array_elements(rules) WITH ORDINALITY AS t(r, ord)
$$;
--> statement-breakpoint
UPDATE "versions" SET "snapshot" = jsonb_set("snapshot", '{model,rules}', "advice_studio_keyed_rule_list"("snapshot"->'model'->'rules'))
  WHERE jsonb_typeof("snapshot"->'model'->'rules') = 'array';
--> statement-breakpoint
UPDATE "versions" SET "snapshot" = jsonb_set("snapshot", '{model,externalRules}', "advice_studio_keyed_rule_list"("snapshot"->'model'->'externalRules'))
  WHERE jsonb_typeof("snapshot"->'model'->'externalRules') = 'array';
--> statement-breakpoint
DROP FUNCTION "advice_studio_keyed_rule_list"(jsonb);
