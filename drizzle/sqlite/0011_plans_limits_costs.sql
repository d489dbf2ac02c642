CREATE TABLE `plans` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`price` integer DEFAULT 0 NOT NULL,
	`duration_seconds` integer NOT NULL,
	`windows` text NOT NULL,
	`models` text DEFAULT '' NOT NULL,
	`group` text DEFAULT '' NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`created_time` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_time` integer DEFAULT (unixepoch()) NOT NULL,
	`deleted_at` integer
);
--> statement-breakpoint
CREATE TABLE `subscription_periods` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subscription_id` integer NOT NULL,
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
CREATE UNIQUE INDEX `subscription_periods_sequence_unique` ON `subscription_periods` (`subscription_id`,`window_index`,`sequence`);--> statement-breakpoint
CREATE INDEX `subscription_periods_subscription_ends_index` ON `subscription_periods` (`subscription_id`,`ends_at`);--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`plan_id` integer NOT NULL,
	`name` text NOT NULL,
	`price` integer DEFAULT 0 NOT NULL,
	`source` text NOT NULL,
	`reference` text NOT NULL,
	`models` text DEFAULT '' NOT NULL,
	`group` text DEFAULT '' NOT NULL,
	`windows` text NOT NULL,
	`starts_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`rolled_up` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subscriptions_reference_unique` ON `subscriptions` (`reference`);--> statement-breakpoint
CREATE INDEX `subscriptions_user_id_index` ON `subscriptions` (`user_id`);--> statement-breakpoint
CREATE INDEX `subscriptions_expires_at_index` ON `subscriptions` (`expires_at`);--> statement-breakpoint
ALTER TABLE `channels` ADD `cost_ratio` real;--> statement-breakpoint
ALTER TABLE `channels` ADD `model_cost` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `logs` ADD `cost` integer;--> statement-breakpoint
ALTER TABLE `logs` ADD `subscription_id` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `midjourneys` ADD `cost` integer;--> statement-breakpoint
ALTER TABLE `quota_holds` ADD `subscription_id` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `quota_holds` ADD `periods` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `redemptions` ADD `plan_id` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tasks` ADD `cost` integer;--> statement-breakpoint
ALTER TABLE `tokens` ADD `rpm_limit` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tokens` ADD `tpm_limit` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tokens` ADD `rpd_limit` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `top_ups` ADD `plan_id` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `rpm_limit` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `tpm_limit` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `rpd_limit` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `concurrency_limit` integer DEFAULT 0 NOT NULL;