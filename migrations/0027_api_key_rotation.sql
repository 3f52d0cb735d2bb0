ALTER TABLE "api_keys" ADD COLUMN "previous_secret_hash" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "previous_secret_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "api_keys_previous_secret_hash_idx" ON "api_keys" USING btree ("previous_secret_hash");