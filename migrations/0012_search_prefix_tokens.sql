ALTER TABLE "search_documents" ADD COLUMN "prefix_terms" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- The same beginnings the indexer computes (prefix-tokens.ts), for the documents already indexed.
UPDATE "search_documents" SET "prefix_terms" = coalesce((SELECT string_agg(DISTINCT '^' || left(w, n), ' ') FROM unnest(string_to_array("name_terms" || ' ' || "name_alt_terms" || ' ' || "text_terms", ' ')) AS w, generate_series(1, 3) AS n WHERE length(w) >= n), '');--> statement-breakpoint
ALTER TABLE "search_documents" drop column "search";--> statement-breakpoint
ALTER TABLE "search_documents" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', "search_documents"."name_terms"), 'A') || setweight(to_tsvector('simple', "search_documents"."name_alt_terms"), 'B') || setweight(to_tsvector('simple', "search_documents"."text_terms"), 'C') || array_to_tsvector(array_remove(ARRAY[
  '~owner:' || owner_id, '~type:' || entity_type_id::text,
  CASE WHEN is_public THEN '~public' END, CASE WHEN is_starter THEN '~starter' END
], NULL)) || array_to_tsvector(array_remove(string_to_array("search_documents"."prefix_terms", ' '), ''))) STORED NOT NULL;--> statement-breakpoint
-- Dropping the column took its GIN index with it.
CREATE INDEX "search_documents_search_idx" ON "search_documents" USING gin ("search") WITH (fastupdate=off);
