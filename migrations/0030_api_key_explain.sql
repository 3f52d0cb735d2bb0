ALTER TABLE "api_keys" ADD COLUMN "explain" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Preview keys exist to try a version before it is published: they may ask for explanations from the start, as new
-- preview keys do. Production keys stay refused until an admin allows them.
UPDATE "api_keys" SET "explain" = true WHERE "environment" = 'preview';
