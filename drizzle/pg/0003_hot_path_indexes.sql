DROP INDEX "logs_token_name_index";--> statement-breakpoint
DROP INDEX "logs_channel_id_index";--> statement-breakpoint
DROP INDEX "logs_request_id_index";--> statement-breakpoint
DROP INDEX "quota_holds_state_deadline_index";--> statement-breakpoint
DROP INDEX "quota_holds_user_id_index";--> statement-breakpoint
CREATE INDEX "quota_holds_pending_deadline_index" ON "quota_holds" USING btree ("deadline") WHERE "quota_holds"."state" = 'pending';