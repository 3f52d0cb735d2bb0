-- Search that costs the same at any size of library (issue 29 part 3). The documents' full-text index gains
-- updated_at in front (btree_gin), so that a broad word's candidates are found among the newest documents without
-- reading every posting of the word; it replaces the index on the tsvector alone, which it serves as well. The
-- lexicon gains a byte-order index, so that a word's one-typo variants are looked up one by one instead of matched by
-- short patterns that no index serves (a whole read of the lexicon on every type-ahead). And the documents are never
-- read by parallel workers: a search wants a few rows at once, and PostgreSQL launched two workers (~10 ms) for a
-- scan of the ranked page that a one-time filter then skipped (on PGlite, which has no workers, this changes nothing).
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
CREATE INDEX "search_documents_recent_search_idx" ON "search_documents" USING gin ("updated_at","search") WITH (fastupdate=off);--> statement-breakpoint
DROP INDEX "search_documents_search_idx";--> statement-breakpoint
ALTER TABLE "search_documents" SET (parallel_workers = 0);--> statement-breakpoint
CREATE INDEX "search_terms_prefix_idx" ON "search_terms" USING btree ("term" text_pattern_ops);
