ALTER TABLE "midjourneys" ADD COLUMN "request_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "midjourneys" ADD COLUMN "private_data" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "request_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "midjourneys_request_id_index" ON "midjourneys" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "midjourneys_unfinished_index" ON "midjourneys" USING btree ("channel_id") WHERE "midjourneys"."status" NOT IN ('SUCCESS', 'FAILURE');--> statement-breakpoint
CREATE INDEX "tasks_request_id_index" ON "tasks" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "tasks_unfinished_index" ON "tasks" USING btree ("channel_id") WHERE "tasks"."status" NOT IN ('SUCCESS', 'FAILURE');