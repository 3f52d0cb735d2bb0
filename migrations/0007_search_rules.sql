-- Rules that existed before they were searchable: indexed at the next start.
INSERT INTO "search_index_tasks" ("entity_type", "entity_id") SELECT 'rule', "id"::text FROM "rules";
