CREATE TABLE "job_file_chunks" (
	"job_id" bigint NOT NULL,
	"seq" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "job_file_chunks_job_id_seq_pk" PRIMARY KEY("job_id","seq")
);
--> statement-breakpoint
ALTER TABLE "job_files" ADD COLUMN "size" bigint;--> statement-breakpoint
-- The files kept so far become one chunk each, and say their size (0047 then drops job_files.bytes).
INSERT INTO "job_file_chunks" ("job_id", "seq", "bytes") SELECT "job_id", 0, "bytes" FROM "job_files";--> statement-breakpoint
UPDATE "job_files" SET "size" = length("bytes");--> statement-breakpoint
ALTER TABLE "job_files" ALTER COLUMN "size" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "job_file_chunks" ADD CONSTRAINT "job_file_chunks_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;