ALTER TABLE `channels` ADD `scheduled_test_enabled` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `channels` ADD `health_failures` integer DEFAULT 0 NOT NULL;