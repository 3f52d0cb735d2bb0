CREATE TABLE "keyword_maps" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"phrases" text[] DEFAULT '{}' NOT NULL,
	"advice_set_id" integer NOT NULL,
	"scenario_id" integer,
	"created_by" integer,
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "advice_scenarios" ADD COLUMN "pinned_responses" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "keyword_maps" ADD CONSTRAINT "keyword_maps_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "keyword_maps" ADD CONSTRAINT "keyword_maps_advice_set_id_advice_sets_id_fk" FOREIGN KEY ("advice_set_id") REFERENCES "public"."advice_sets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "keyword_maps" ADD CONSTRAINT "keyword_maps_scenario_id_advice_scenarios_id_fk" FOREIGN KEY ("scenario_id") REFERENCES "public"."advice_scenarios"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "keyword_maps" ADD CONSTRAINT "keyword_maps_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "keyword_maps" ADD CONSTRAINT "keyword_maps_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "keyword_maps_owner_idx" ON "keyword_maps" USING btree ("owner_id","deleted_at");--> statement-breakpoint
CREATE INDEX "keyword_maps_set_idx" ON "keyword_maps" USING btree ("advice_set_id");--> statement-breakpoint
CREATE INDEX "keyword_maps_scenario_idx" ON "keyword_maps" USING btree ("scenario_id");