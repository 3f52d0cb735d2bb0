DROP INDEX "entities_owner_name_idx";--> statement-breakpoint
ALTER TABLE "rule_nodes" ADD COLUMN "key" text DEFAULT substr(md5(random()::text || clock_timestamp()::text), 1, 16) NOT NULL;--> statement-breakpoint
ALTER TABLE "rules" ADD COLUMN "only_when_called" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "entities_set_name_idx" ON "entities" USING btree ("advice_set_id",lower(reserved_name)) WHERE deleted_at is null and advice_set_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "rule_nodes_live_key_idx" ON "rule_nodes" USING btree ("rule_id","key") WHERE deleted_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "entities_owner_name_idx" ON "entities" USING btree ("owner_id",lower(reserved_name)) WHERE deleted_at is null and advice_set_id is null;--> statement-breakpoint
-- Backfill (edited by hand). only_when_called stays false for every existing rule, those Promote made included: a
-- set keeps running as it did until its author says otherwise (the static check names each rule that also runs on its
-- own). Node keys: the volatile default above gave every row its own key. Published snapshots hold nodes too, each
-- by its row id; they take that row's key, so versions made before keys existed pair with the draft and with newer
-- versions by key. A node whose row cannot be found keeps no key (the services then pair it by id).
CREATE FUNCTION "advice_studio_keyed_nodes"(nodes jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  result jsonb := '[]'::jsonb;
  node jsonb;
  found text;
BEGIN
  IF nodes IS NULL OR jsonb_typeof(nodes) <> 'array' THEN RETURN nodes; END IF;
  FOR node IN SELECT value FROM jsonb_array_elements(nodes) LOOP
    IF jsonb_typeof(node) = 'object' THEN
      IF NOT node ? 'key' AND coalesce(node->>'id', '') ~ '^[0-9]{1,9}$' THEN
        SELECT "key" INTO found FROM "rule_nodes" WHERE "id" = (node->>'id')::int;
        IF found IS NOT NULL THEN node := node || jsonb_build_object('key', found); END IF;
      END IF;
      IF jsonb_typeof(node->'children') = 'array' THEN
        node := jsonb_set(node, '{children}', "advice_studio_keyed_nodes"(node->'children'));
      END IF;
    END IF;
    result := result || jsonb_build_array(node);
  END LOOP;
  RETURN result;
END $$;
--> statement-breakpoint
CREATE FUNCTION "advice_studio_keyed_rules"(rules jsonb) RETURNS jsonb LANGUAGE sql AS $$
  SELECT coalesce(jsonb_agg(
    CASE WHEN jsonb_typeof(r) = 'object' AND jsonb_typeof(r->'nodes') = 'array'
      THEN jsonb_set(r, '{nodes}', "advice_studio_keyed_nodes"(r->'nodes')) ELSE r END
    ORDER BY ord), '[]'::jsonb)
  FROM jsonb_array_elements(rules) WITH ORDINALITY AS t(r, ord)
$$;
--> statement-breakpoint
UPDATE "versions" SET "snapshot" = jsonb_set("snapshot", '{model,rules}', "advice_studio_keyed_rules"("snapshot"->'model'->'rules'))
  WHERE jsonb_typeof("snapshot"->'model'->'rules') = 'array';
--> statement-breakpoint
UPDATE "versions" SET "snapshot" = jsonb_set("snapshot", '{model,externalRules}', "advice_studio_keyed_rules"("snapshot"->'model'->'externalRules'))
  WHERE jsonb_typeof("snapshot"->'model'->'externalRules') = 'array';
--> statement-breakpoint
DROP FUNCTION "advice_studio_keyed_rules"(jsonb);
--> statement-breakpoint
DROP FUNCTION "advice_studio_keyed_nodes"(jsonb);
