CREATE TABLE `key_cooldowns` (
	`channel_id` integer NOT NULL,
	`key_index` integer NOT NULL,
	`until` integer NOT NULL,
	PRIMARY KEY(`channel_id`, `key_index`)
);
--> statement-breakpoint
ALTER TABLE `tokens` ADD `concurrency_limit` integer DEFAULT 0 NOT NULL;