-- An advice set's "Updated" now follows every change to its content: its rules, their nodes, its scenarios, versions
-- and supplement links (src/services/audit/audit.ts marks the set). Sets that exist take the latest such change
-- made before this migration.
UPDATE "advice_sets" AS s SET "updated_at" = c.latest
FROM (
  SELECT set_id, max(at) AS latest FROM (
    SELECT "advice_set_id" AS set_id, "updated_at" AS at FROM "rules"
    UNION ALL SELECT r."advice_set_id", n."updated_at" FROM "rule_nodes" n JOIN "rules" r ON r."id" = n."rule_id"
    UNION ALL SELECT "advice_set_id", "updated_at" FROM "advice_scenarios"
    UNION ALL SELECT "advice_set_id", "updated_at" FROM "versions"
    UNION ALL SELECT "target_id", "created_at" FROM "supplement_links" WHERE "target_type" = 'adviceSet'
    UNION ALL SELECT r."advice_set_id", l."created_at" FROM "supplement_links" l
      JOIN "rule_nodes" n ON n."id" = l."target_id" AND l."target_type" = 'ruleNode'
      JOIN "rules" r ON r."id" = n."rule_id"
  ) AS changes GROUP BY set_id
) AS c
WHERE c.set_id = s."id" AND c.latest > s."updated_at";
