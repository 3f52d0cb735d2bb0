-- Interview analytics count the embed's interviews per interview, and partners' Advice API calls apart as runs
-- (src/services/delivery/interview-events.ts). Counts recorded before came from Advice API calls alone: every call
-- was one question shown or one advice reached, and a call without answers was one "started". They become runs.
INSERT INTO "interview_event_counts" ("advice_set_id", "day", "event", "question", "count")
SELECT "advice_set_id", "day", 'api_run', '', sum("count") FROM "interview_event_counts"
WHERE "event" IN ('question_shown', 'advice_reached') GROUP BY "advice_set_id", "day"
ON CONFLICT ("advice_set_id", "day", "event", "question") DO UPDATE SET "count" = "interview_event_counts"."count" + excluded."count";
--> statement-breakpoint
UPDATE "interview_event_counts" SET "event" = 'api_run_complete' WHERE "event" = 'advice_reached';
--> statement-breakpoint
DELETE FROM "interview_event_counts" WHERE "event" = 'started';
