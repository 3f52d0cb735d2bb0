CREATE TABLE "advice_scenario_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"scenario_id" integer NOT NULL,
	"user_id" integer,
	"version_id" integer,
	"status" text NOT NULL,
	"differences" jsonb,
	"actual" jsonb,
	"error_message" text,
	"ran_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "advice_scenarios" (
	"id" serial PRIMARY KEY NOT NULL,
	"advice_set_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"inputs" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"run_as_of" date,
	"expected" jsonb NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "advice_scenario_runs" ADD CONSTRAINT "advice_scenario_runs_scenario_id_advice_scenarios_id_fk" FOREIGN KEY ("scenario_id") REFERENCES "public"."advice_scenarios"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advice_scenario_runs" ADD CONSTRAINT "advice_scenario_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advice_scenario_runs" ADD CONSTRAINT "advice_scenario_runs_version_id_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advice_scenarios" ADD CONSTRAINT "advice_scenarios_advice_set_id_advice_sets_id_fk" FOREIGN KEY ("advice_set_id") REFERENCES "public"."advice_sets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advice_scenarios" ADD CONSTRAINT "advice_scenarios_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advice_scenarios" ADD CONSTRAINT "advice_scenarios_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "advice_scenario_runs_scenario_idx" ON "advice_scenario_runs" USING btree ("scenario_id","id");--> statement-breakpoint
CREATE INDEX "advice_scenario_runs_user_idx" ON "advice_scenario_runs" USING btree ("user_id","ran_at");--> statement-breakpoint
CREATE INDEX "advice_scenarios_set_idx" ON "advice_scenarios" USING btree ("advice_set_id","deleted_at");