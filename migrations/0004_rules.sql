CREATE TABLE "comments" (
	"id" serial PRIMARY KEY NOT NULL,
	"rule_node_id" integer NOT NULL,
	"user_id" integer,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "entities" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"advice_set_id" integer,
	"entity_type_id" integer NOT NULL,
	"reserved_name" text NOT NULL,
	"data_type" text,
	"valid_options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"is_closed_set" boolean DEFAULT false NOT NULL,
	"display_format" text,
	"default_value" jsonb,
	"expression" text,
	"is_constant" boolean DEFAULT false NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "rule_nodes" (
	"id" serial PRIMARY KEY NOT NULL,
	"rule_id" integer NOT NULL,
	"parent_id" integer,
	"position" integer NOT NULL,
	"type" text NOT NULL,
	"expression" text,
	"variable" text,
	"headline" text,
	"text" text,
	"question" text,
	"called_rule_id" integer,
	"api_id" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"sources" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"advice_set_id" integer NOT NULL,
	"name" text NOT NULL,
	"position" integer NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_rule_node_id_rule_nodes_id_fk" FOREIGN KEY ("rule_node_id") REFERENCES "public"."rule_nodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entities" ADD CONSTRAINT "entities_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entities" ADD CONSTRAINT "entities_advice_set_id_advice_sets_id_fk" FOREIGN KEY ("advice_set_id") REFERENCES "public"."advice_sets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entities" ADD CONSTRAINT "entities_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entities" ADD CONSTRAINT "entities_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_nodes" ADD CONSTRAINT "rule_nodes_rule_id_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."rules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_nodes" ADD CONSTRAINT "rule_nodes_parent_id_rule_nodes_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."rule_nodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_nodes" ADD CONSTRAINT "rule_nodes_called_rule_id_rules_id_fk" FOREIGN KEY ("called_rule_id") REFERENCES "public"."rules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_nodes" ADD CONSTRAINT "rule_nodes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_nodes" ADD CONSTRAINT "rule_nodes_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules" ADD CONSTRAINT "rules_advice_set_id_advice_sets_id_fk" FOREIGN KEY ("advice_set_id") REFERENCES "public"."advice_sets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules" ADD CONSTRAINT "rules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules" ADD CONSTRAINT "rules_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comments_node_idx" ON "comments" USING btree ("rule_node_id");--> statement-breakpoint
CREATE UNIQUE INDEX "entities_owner_name_idx" ON "entities" USING btree ("owner_id",lower(reserved_name)) WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "entities_advice_set_idx" ON "entities" USING btree ("advice_set_id");--> statement-breakpoint
CREATE INDEX "rule_nodes_rule_idx" ON "rule_nodes" USING btree ("rule_id");--> statement-breakpoint
CREATE INDEX "rule_nodes_parent_idx" ON "rule_nodes" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "rule_nodes_called_rule_idx" ON "rule_nodes" USING btree ("called_rule_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rule_nodes_live_position_idx" ON "rule_nodes" USING btree ("rule_id",coalesce(parent_id, 0),"position") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "rules_advice_set_idx" ON "rules" USING btree ("advice_set_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rules_live_position_idx" ON "rules" USING btree ("advice_set_id","position") WHERE deleted_at is null;