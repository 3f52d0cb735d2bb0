CREATE TYPE "public"."advice_request_status" AS ENUM('open', 'planned', 'answered');--> statement-breakpoint
CREATE TABLE "advice_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"advice_set_id" integer NOT NULL,
	"text" text NOT NULL,
	"status" "advice_request_status" DEFAULT 'open' NOT NULL,
	"answered_by_rule_id" integer,
	"source" text NOT NULL,
	"api_key_id" integer,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "interview_event_counts" (
	"advice_set_id" integer NOT NULL,
	"day" date NOT NULL,
	"event" text NOT NULL,
	"question" text DEFAULT '' NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "interview_event_counts_advice_set_id_day_event_question_pk" PRIMARY KEY("advice_set_id","day","event","question")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "advice_requests" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "advice_requests" ADD CONSTRAINT "advice_requests_advice_set_id_advice_sets_id_fk" FOREIGN KEY ("advice_set_id") REFERENCES "public"."advice_sets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advice_requests" ADD CONSTRAINT "advice_requests_answered_by_rule_id_rules_id_fk" FOREIGN KEY ("answered_by_rule_id") REFERENCES "public"."rules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advice_requests" ADD CONSTRAINT "advice_requests_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advice_requests" ADD CONSTRAINT "advice_requests_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "advice_requests_set_idx" ON "advice_requests" USING btree ("advice_set_id","created_at");