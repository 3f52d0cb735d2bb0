-- Rule nodes and dictionary entries that existed before they were searchable: indexed at the next start.
INSERT INTO "search_index_tasks" ("entity_type", "entity_id") SELECT 'rulenode', "id"::text FROM "rule_nodes" WHERE "parent_id" IS NULL;--> statement-breakpoint
INSERT INTO "search_index_tasks" ("entity_type", "entity_id") SELECT 'entity', "id"::text FROM "entities";
