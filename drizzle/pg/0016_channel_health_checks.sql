ALTER TABLE "channels" ADD COLUMN "scheduled_test_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "health_failures" bigint DEFAULT 0 NOT NULL;