CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "search_documents" (
	"object_id" text PRIMARY KEY NOT NULL,
	"entity_type_id" integer NOT NULL,
	"entity_type_name" text NOT NULL,
	"owner_id" text NOT NULL,
	"owner_name" text NOT NULL,
	"advice_set_id" integer,
	"is_public" boolean NOT NULL,
	"is_starter" boolean NOT NULL,
	"tags" text[] NOT NULL,
	"hit" jsonb NOT NULL,
	"name_terms" text NOT NULL,
	"name_alt_terms" text NOT NULL,
	"text_terms" text NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', "search_documents"."name_terms"), 'A') || setweight(to_tsvector('simple', "search_documents"."name_alt_terms"), 'B') || setweight(to_tsvector('simple', "search_documents"."text_terms"), 'C')) STORED NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_index_tasks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_terms" (
	"term" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_documents_search_idx" ON "search_documents" USING gin ("search");--> statement-breakpoint
CREATE INDEX "search_documents_updated_idx" ON "search_documents" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "search_documents_owner_idx" ON "search_documents" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "search_index_tasks_run_after_idx" ON "search_index_tasks" USING btree ("run_after");--> statement-breakpoint
CREATE INDEX "search_terms_trgm_idx" ON "search_terms" USING gin ("term" gin_trgm_ops);--> statement-breakpoint
-- Advice sets that existed before search: indexed at the next start.
INSERT INTO "search_index_tasks" ("entity_type", "entity_id") SELECT 'adviceset', "id"::text FROM "advice_sets";
