-- The provider owner (SPEC §3: provider owner id TF) and the provider's tags (SPEC §3 tag slugs and label).
INSERT INTO "owners" ("id", "name") VALUES ('TF', 'Advice Studio') ON CONFLICT ("id") DO NOTHING;
--> statement-breakpoint
INSERT INTO "tags" ("owner_id", "slug", "label", "type", "description") VALUES
  ('TF', 'assumption', 'Assumption', 'advice_type', 'Advice shown as an assumption the advice rests on'),
  ('TF', 'example', 'Example', 'advice_type', 'Advice shown as a worked example'),
  ('TF', 'collapse', 'Collapse', 'advice_group', 'Advice shown collapsed, opened on demand'),
  ('TF', 'follow-on', 'Follow-on', 'advice_group', 'Advice that follows on from the previous item'),
  ('TF', 'needs-work', 'Needs Work', 'label', 'Marked by an author as not finished')
ON CONFLICT ("owner_id", "slug") DO NOTHING;
