-- UNLOGGED (edited by hand): counters need no crash safety; see src/db/schema/rate-limits.ts.
CREATE UNLOGGED TABLE "rate_windows" (
	"bucket" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	"granted" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_windows_started_idx" ON "rate_windows" USING btree ("started_at");