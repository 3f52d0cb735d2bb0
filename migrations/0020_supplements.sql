CREATE TABLE "supplement_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"supplement_id" integer NOT NULL,
	"target_type" text NOT NULL,
	"target_id" integer NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "supplements" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text DEFAULT 'adviceSource' NOT NULL,
	"format" text NOT NULL,
	"source" text,
	"content_type" text NOT NULL,
	"file_ext" text DEFAULT '' NOT NULL,
	"size" bigint DEFAULT 0 NOT NULL,
	"storage_key" text,
	"url" text,
	"image_url" text,
	"description" text DEFAULT '' NOT NULL,
	"access_token" text NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "supplement_links" ADD CONSTRAINT "supplement_links_supplement_id_supplements_id_fk" FOREIGN KEY ("supplement_id") REFERENCES "public"."supplements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supplement_links" ADD CONSTRAINT "supplement_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supplements" ADD CONSTRAINT "supplements_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supplements" ADD CONSTRAINT "supplements_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supplements" ADD CONSTRAINT "supplements_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "supplement_links_unique_idx" ON "supplement_links" USING btree ("supplement_id","target_type","target_id");--> statement-breakpoint
CREATE INDEX "supplement_links_target_idx" ON "supplement_links" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE INDEX "supplements_owner_idx" ON "supplements" USING btree ("owner_id","deleted_at");--> statement-breakpoint
CREATE UNIQUE INDEX "supplements_storage_key_idx" ON "supplements" USING btree ("storage_key");