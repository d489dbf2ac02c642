CREATE TABLE `kept_responses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`response_id` text NOT NULL,
	`user_id` integer NOT NULL,
	`channel_id` integer NOT NULL,
	`key_index` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `kept_responses_response_id_index` ON `kept_responses` (`response_id`);--> statement-breakpoint
INSERT INTO `kept_responses` (`created_at`, `response_id`, `user_id`, `channel_id`, `key_index`)
	SELECT `created_at`, `task_id`, `user_id`, `channel_id`,
		CASE WHEN json_valid(`private_data`) THEN COALESCE(CAST(json_extract(`private_data`, '$.key_index') AS integer), 0) ELSE 0 END
	FROM `tasks` WHERE `platform` = 'openai-responses';
--> statement-breakpoint
DELETE FROM `tasks` WHERE `platform` = 'openai-responses';
