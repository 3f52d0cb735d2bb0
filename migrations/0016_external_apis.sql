CREATE TABLE "external_apis" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"method" text DEFAULT 'GET' NOT NULL,
	"url_template" text NOT NULL,
	"headers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"body_template" text DEFAULT '' NOT NULL,
	"timeout_ms" integer DEFAULT 5000 NOT NULL,
	"response_mapping" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cache_ttl_seconds" integer DEFAULT 300 NOT NULL,
	"sample_response" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "external_apis" ADD CONSTRAINT "external_apis_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_apis" ADD CONSTRAINT "external_apis_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_apis" ADD CONSTRAINT "external_apis_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "external_apis_owner_idx" ON "external_apis" USING btree ("owner_id");