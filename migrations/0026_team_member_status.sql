-- Team members (issue 25): a user's status in their team (active, invited, deactivated, cancelled invitation).
CREATE TYPE "public"."user_status" AS ENUM('active', 'invited', 'deactivated', 'cancelled');--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "status" "user_status" DEFAULT 'active' NOT NULL;--> statement-breakpoint
-- Hand-written backfill (issue 25): a user who never set a password is a pending invitation.
UPDATE "users" SET "status" = 'invited' WHERE "password_hash" IS NULL;
