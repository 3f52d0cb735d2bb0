CREATE TYPE "public"."tag_type" AS ENUM('advice_group', 'advice_type', 'label');--> statement-breakpoint
CREATE TABLE "advice_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "advice_sets" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"category_id" integer,
	"name" text NOT NULL,
	"name_alt" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"is_starter" boolean DEFAULT false NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "recent_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" integer NOT NULL,
	"viewed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tag_links" (
	"tag_id" integer NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tag_links_tag_id_entity_type_entity_id_pk" PRIMARY KEY("tag_id","entity_type","entity_id")
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"slug" text NOT NULL,
	"label" text NOT NULL,
	"type" "tag_type" DEFAULT 'label' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "advice_categories" ADD CONSTRAINT "advice_categories_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advice_sets" ADD CONSTRAINT "advice_sets_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advice_sets" ADD CONSTRAINT "advice_sets_category_id_advice_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."advice_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advice_sets" ADD CONSTRAINT "advice_sets_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advice_sets" ADD CONSTRAINT "advice_sets_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recent_items" ADD CONSTRAINT "recent_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_links" ADD CONSTRAINT "tag_links_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "advice_categories_owner_idx" ON "advice_categories" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "advice_sets_owner_idx" ON "advice_sets" USING btree ("owner_id","deleted_at");--> statement-breakpoint
CREATE INDEX "advice_sets_category_idx" ON "advice_sets" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "advice_sets_updated_idx" ON "advice_sets" USING btree ("updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "recent_items_user_entity_idx" ON "recent_items" USING btree ("user_id","entity_type","entity_id");--> statement-breakpoint
CREATE INDEX "recent_items_user_time_idx" ON "recent_items" USING btree ("user_id","viewed_at");--> statement-breakpoint
CREATE INDEX "tag_links_entity_idx" ON "tag_links" USING btree ("entity_type","entity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tags_owner_slug_idx" ON "tags" USING btree ("owner_id","slug");