CREATE TABLE "decision_records" (
	"id" uuid NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"owner_id" text NOT NULL,
	"advice_set_id" integer NOT NULL,
	"version_id" integer NOT NULL,
	"version_number" integer NOT NULL,
	"api_key_id" integer NOT NULL,
	"environment" text NOT NULL,
	"endpoint" text NOT NULL,
	"content_type" text NOT NULL,
	"inputs" jsonb NOT NULL,
	"personal_hashes" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text NOT NULL,
	"advice_node_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"has_errors" boolean DEFAULT false NOT NULL,
	"outcome" jsonb NOT NULL,
	"engine_micros" integer NOT NULL,
	CONSTRAINT "decision_records_received_at_id_pk" PRIMARY KEY("received_at","id")
) PARTITION BY RANGE ("received_at");
--> statement-breakpoint
-- Months get their own partitions from the app (services/decisions/maintenance.ts), ahead of time; a record outside
-- them lands here, so an insert never fails for want of a partition.
CREATE TABLE "decision_records_default" PARTITION OF "decision_records" DEFAULT;
--> statement-breakpoint
ALTER TABLE "owners" ADD COLUMN "decision_mode" text DEFAULT 'best_effort' NOT NULL;--> statement-breakpoint
ALTER TABLE "owners" ADD COLUMN "decision_retention_days" integer DEFAULT 365 NOT NULL;--> statement-breakpoint
ALTER TABLE "owners" ADD COLUMN "decisions_dropped" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "owners" ADD COLUMN "decisions_dropped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "entities" ADD COLUMN "personal" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "decision_records_set_idx" ON "decision_records" USING btree ("advice_set_id","received_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "decision_records_personal_idx" ON "decision_records" USING gin ("personal_hashes") WHERE personal_hashes <> '{}'::text[];--> statement-breakpoint
CREATE INDEX "decision_records_advice_idx" ON "decision_records" USING gin ("advice_node_ids");