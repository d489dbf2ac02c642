CREATE TABLE `abilities` (
	`group` text NOT NULL,
	`model` text NOT NULL,
	`channel_id` integer NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`weight` integer DEFAULT 0 NOT NULL,
	`tag` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`group`, `model`, `channel_id`)
);
--> statement-breakpoint
CREATE INDEX `abilities_channel_id_index` ON `abilities` (`channel_id`);--> statement-breakpoint
CREATE TABLE `channels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` integer DEFAULT 1 NOT NULL,
	`key` text NOT NULL,
	`openai_organization` text DEFAULT '' NOT NULL,
	`test_model` text DEFAULT '' NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`weight` integer DEFAULT 0 NOT NULL,
	`created_time` integer DEFAULT (unixepoch()) NOT NULL,
	`test_time` integer DEFAULT 0 NOT NULL,
	`response_time` integer DEFAULT 0 NOT NULL,
	`base_url` text DEFAULT '' NOT NULL,
	`other` text DEFAULT '' NOT NULL,
	`balance` real DEFAULT 0 NOT NULL,
	`balance_updated_time` integer DEFAULT 0 NOT NULL,
	`models` text DEFAULT '' NOT NULL,
	`group` text DEFAULT 'default' NOT NULL,
	`used_quota` integer DEFAULT 0 NOT NULL,
	`model_mapping` text DEFAULT '' NOT NULL,
	`status_code_mapping` text DEFAULT '' NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`auto_ban` integer DEFAULT 1 NOT NULL,
	`other_info` text DEFAULT '' NOT NULL,
	`tag` text DEFAULT '' NOT NULL,
	`setting` text DEFAULT '' NOT NULL,
	`max_input_tokens` integer DEFAULT 0 NOT NULL,
	`expired_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `channels_name_index` ON `channels` (`name`);--> statement-breakpoint
CREATE INDEX `channels_tag_index` ON `channels` (`tag`);--> statement-breakpoint
CREATE TABLE `leases` (
	`name` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `logs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`type` integer DEFAULT 0 NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`username` text DEFAULT '' NOT NULL,
	`token_name` text DEFAULT '' NOT NULL,
	`token_id` integer DEFAULT 0 NOT NULL,
	`model_name` text DEFAULT '' NOT NULL,
	`quota` integer DEFAULT 0 NOT NULL,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`completion_tokens` integer DEFAULT 0 NOT NULL,
	`use_time` integer DEFAULT 0 NOT NULL,
	`is_stream` integer DEFAULT false NOT NULL,
	`channel_id` integer DEFAULT 0 NOT NULL,
	`channel_name` text DEFAULT '' NOT NULL,
	`group` text DEFAULT '' NOT NULL,
	`ip` text DEFAULT '' NOT NULL,
	`request_id` text DEFAULT '' NOT NULL,
	`other` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `logs_user_id_id_index` ON `logs` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `logs_created_at_type_index` ON `logs` (`created_at`,`type`);--> statement-breakpoint
CREATE INDEX `logs_model_name_username_index` ON `logs` (`model_name`,`username`);--> statement-breakpoint
CREATE INDEX `logs_token_name_index` ON `logs` (`token_name`);--> statement-breakpoint
CREATE INDEX `logs_channel_id_index` ON `logs` (`channel_id`);--> statement-breakpoint
CREATE INDEX `logs_request_id_index` ON `logs` (`request_id`);--> statement-breakpoint
CREATE TABLE `midjourneys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` integer DEFAULT 0 NOT NULL,
	`user_id` integer DEFAULT 0 NOT NULL,
	`action` text DEFAULT '' NOT NULL,
	`mj_id` text DEFAULT '' NOT NULL,
	`prompt` text DEFAULT '' NOT NULL,
	`prompt_en` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`state` text DEFAULT '' NOT NULL,
	`submit_time` integer DEFAULT 0 NOT NULL,
	`start_time` integer DEFAULT 0 NOT NULL,
	`finish_time` integer DEFAULT 0 NOT NULL,
	`image_url` text DEFAULT '' NOT NULL,
	`status` text DEFAULT '' NOT NULL,
	`progress` text DEFAULT '' NOT NULL,
	`fail_reason` text DEFAULT '' NOT NULL,
	`channel_id` integer DEFAULT 0 NOT NULL,
	`quota` integer DEFAULT 0 NOT NULL,
	`buttons` text DEFAULT '' NOT NULL,
	`properties` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `midjourneys_user_id_index` ON `midjourneys` (`user_id`);--> statement-breakpoint
CREATE INDEX `midjourneys_mj_id_index` ON `midjourneys` (`mj_id`);--> statement-breakpoint
CREATE INDEX `midjourneys_submit_time_index` ON `midjourneys` (`submit_time`);--> statement-breakpoint
CREATE TABLE `options` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `quota_data` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`username` text DEFAULT '' NOT NULL,
	`model_name` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`token_used` integer DEFAULT 0 NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`quota` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `quota_data_bucket_unique` ON `quota_data` (`user_id`,`model_name`,`created_at`);--> statement-breakpoint
CREATE INDEX `quota_data_created_at_index` ON `quota_data` (`created_at`);--> statement-breakpoint
CREATE TABLE `quota_holds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`request_id` text NOT NULL,
	`user_id` integer NOT NULL,
	`token_id` integer DEFAULT 0 NOT NULL,
	`amount` integer NOT NULL,
	`charged` integer DEFAULT 0 NOT NULL,
	`state` text DEFAULT 'pending' NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`node` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`deadline` integer NOT NULL,
	`closed_at` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `quota_holds_request_id_unique` ON `quota_holds` (`request_id`);--> statement-breakpoint
CREATE INDEX `quota_holds_state_deadline_index` ON `quota_holds` (`state`,`deadline`);--> statement-breakpoint
CREATE INDEX `quota_holds_user_id_index` ON `quota_holds` (`user_id`);--> statement-breakpoint
CREATE TABLE `redemptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer DEFAULT 0 NOT NULL,
	`key` text NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`quota` integer DEFAULT 100000 NOT NULL,
	`created_time` integer DEFAULT (unixepoch()) NOT NULL,
	`redeemed_time` integer DEFAULT 0 NOT NULL,
	`used_user_id` integer DEFAULT 0 NOT NULL,
	`expired_time` integer DEFAULT 0 NOT NULL,
	`deleted_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `redemptions_key_unique` ON `redemptions` (`key`);--> statement-breakpoint
CREATE INDEX `redemptions_name_index` ON `redemptions` (`name`);--> statement-breakpoint
CREATE TABLE `tasks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	`task_id` text DEFAULT '' NOT NULL,
	`platform` text DEFAULT '' NOT NULL,
	`user_id` integer DEFAULT 0 NOT NULL,
	`group` text DEFAULT '' NOT NULL,
	`channel_id` integer DEFAULT 0 NOT NULL,
	`quota` integer DEFAULT 0 NOT NULL,
	`action` text DEFAULT '' NOT NULL,
	`status` text DEFAULT '' NOT NULL,
	`fail_reason` text DEFAULT '' NOT NULL,
	`submit_time` integer DEFAULT 0 NOT NULL,
	`start_time` integer DEFAULT 0 NOT NULL,
	`finish_time` integer DEFAULT 0 NOT NULL,
	`progress` text DEFAULT '' NOT NULL,
	`properties` text DEFAULT '' NOT NULL,
	`private_data` text DEFAULT '' NOT NULL,
	`data` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `tasks_task_id_index` ON `tasks` (`task_id`);--> statement-breakpoint
CREATE INDEX `tasks_user_id_index` ON `tasks` (`user_id`);--> statement-breakpoint
CREATE INDEX `tasks_submit_time_index` ON `tasks` (`submit_time`);--> statement-breakpoint
CREATE TABLE `tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`key_hash` text NOT NULL,
	`key_cipher` text NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`created_time` integer DEFAULT (unixepoch()) NOT NULL,
	`accessed_time` integer DEFAULT 0 NOT NULL,
	`expired_time` integer DEFAULT -1 NOT NULL,
	`remain_quota` integer DEFAULT 0 NOT NULL,
	`unlimited_quota` integer DEFAULT false NOT NULL,
	`model_limits_enabled` integer DEFAULT false NOT NULL,
	`model_limits` text DEFAULT '' NOT NULL,
	`allow_ips` text DEFAULT '' NOT NULL,
	`used_quota` integer DEFAULT 0 NOT NULL,
	`group` text DEFAULT '' NOT NULL,
	`deleted_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tokens_key_hash_unique` ON `tokens` (`key_hash`);--> statement-breakpoint
CREATE INDEX `tokens_user_id_index` ON `tokens` (`user_id`);--> statement-breakpoint
CREATE INDEX `tokens_name_index` ON `tokens` (`name`);--> statement-breakpoint
CREATE TABLE `top_ups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`amount` integer DEFAULT 0 NOT NULL,
	`money` real DEFAULT 0 NOT NULL,
	`trade_no` text NOT NULL,
	`payment_method` text DEFAULT '' NOT NULL,
	`create_time` integer DEFAULT (unixepoch()) NOT NULL,
	`complete_time` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `top_ups_trade_no_unique` ON `top_ups` (`trade_no`);--> statement-breakpoint
CREATE INDEX `top_ups_user_id_index` ON `top_ups` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`password` text NOT NULL,
	`display_name` text DEFAULT '' NOT NULL,
	`role` integer DEFAULT 1 NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`github_id` text DEFAULT '' NOT NULL,
	`wechat_id` text DEFAULT '' NOT NULL,
	`telegram_id` text DEFAULT '' NOT NULL,
	`linux_do_id` text DEFAULT '' NOT NULL,
	`access_token_hash` text,
	`access_token_cipher` text,
	`quota` integer DEFAULT 0 NOT NULL,
	`used_quota` integer DEFAULT 0 NOT NULL,
	`request_count` integer DEFAULT 0 NOT NULL,
	`group` text DEFAULT 'default' NOT NULL,
	`aff_code` text NOT NULL,
	`aff_count` integer DEFAULT 0 NOT NULL,
	`aff_quota` integer DEFAULT 0 NOT NULL,
	`aff_history_quota` integer DEFAULT 0 NOT NULL,
	`inviter_id` integer DEFAULT 0 NOT NULL,
	`session_version` integer DEFAULT 1 NOT NULL,
	`password_change_required` integer DEFAULT false NOT NULL,
	`created_time` integer DEFAULT (unixepoch()) NOT NULL,
	`last_login_time` integer DEFAULT 0 NOT NULL,
	`deleted_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (`username`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_aff_code_unique` ON `users` (`aff_code`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_access_token_hash_unique` ON `users` (`access_token_hash`);--> statement-breakpoint
CREATE INDEX `users_email_index` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_inviter_id_index` ON `users` (`inviter_id`);--> statement-breakpoint
CREATE TABLE `verifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`purpose` text NOT NULL,
	`target` text NOT NULL,
	`code_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `verifications_purpose_target_index` ON `verifications` (`purpose`,`target`);