DROP INDEX "search_documents_starter_search_idx";--> statement-breakpoint
DROP INDEX "search_documents_public_search_idx";--> statement-breakpoint
DROP INDEX "search_documents_advice_set_search_idx";--> statement-breakpoint
ALTER TABLE "search_documents" drop column "search";--> statement-breakpoint
ALTER TABLE "search_documents" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', "search_documents"."name_terms"), 'A') || setweight(to_tsvector('simple', "search_documents"."name_alt_terms"), 'B') || setweight(to_tsvector('simple', "search_documents"."text_terms"), 'C') || array_to_tsvector(array_remove(ARRAY[
  '~owner:' || owner_id, '~type:' || entity_type_id::text,
  CASE WHEN is_public THEN '~public' END, CASE WHEN is_starter THEN '~starter' END
], NULL))) STORED NOT NULL;--> statement-breakpoint
-- Dropping the column took its GIN index with it.
CREATE INDEX "search_documents_search_idx" ON "search_documents" USING gin ("search") WITH (fastupdate=off);
