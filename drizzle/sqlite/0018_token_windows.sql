CREATE TABLE `token_periods` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`window_index` integer NOT NULL,
	`sequence` integer NOT NULL,
	`quota` integer NOT NULL,
	`used` integer DEFAULT 0 NOT NULL,
	`held` integer DEFAULT 0 NOT NULL,
	`remain` integer NOT NULL,
	`started_at` integer NOT NULL,
	`ends_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `token_periods_sequence_unique` ON `token_periods` (`token_id`,`window_index`,`sequence`);--> statement-breakpoint
CREATE INDEX `token_periods_token_ends_index` ON `token_periods` (`token_id`,`ends_at`);--> statement-breakpoint
ALTER TABLE `quota_holds` ADD `token_periods` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `tokens` ADD `quota_windows` text DEFAULT '[]' NOT NULL;