CREATE TABLE `channel_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`channel_id` integer NOT NULL,
	`position` integer NOT NULL,
	`key` text NOT NULL,
	`digest` text NOT NULL,
	`hint` text DEFAULT '' NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`status_reason` text DEFAULT '' NOT NULL,
	`status_time` integer DEFAULT 0 NOT NULL,
	`last_error` text DEFAULT '' NOT NULL,
	`response_time` integer DEFAULT 0 NOT NULL,
	`test_time` integer DEFAULT 0 NOT NULL,
	`created_time` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `channel_keys_position_unique` ON `channel_keys` (`channel_id`,`position`);--> statement-breakpoint
CREATE UNIQUE INDEX `channel_keys_digest_unique` ON `channel_keys` (`channel_id`,`digest`);--> statement-breakpoint
ALTER TABLE `channels` ADD `mode` text DEFAULT 'single' NOT NULL;--> statement-breakpoint
ALTER TABLE `channels` ADD `multi_key_mode` text DEFAULT 'random' NOT NULL;--> statement-breakpoint
ALTER TABLE `channels` ADD `next_key_index` integer DEFAULT 0 NOT NULL;