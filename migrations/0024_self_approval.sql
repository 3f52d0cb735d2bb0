-- Self-approval (issue 23 defect 11): every existing owner keeps four-eyes approval (false); no existing version was
-- approved by its submitter (null).
ALTER TABLE "owners" ADD COLUMN "self_approval_allowed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "owners" ADD COLUMN "self_approval_changed_by" integer;--> statement-breakpoint
ALTER TABLE "owners" ADD COLUMN "self_approval_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "versions" ADD COLUMN "self_approval" jsonb;