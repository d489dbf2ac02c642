INSERT INTO `tasks` (`created_at`, `updated_at`, `task_id`, `platform`, `user_id`, `channel_id`, `quota`, `action`, `status`, `fail_reason`,
		`submit_time`, `start_time`, `finish_time`, `progress`, `properties`, `private_data`, `data`, `request_id`, `cost`)
	SELECT `submit_time`, MAX(`submit_time`, `start_time`, `finish_time`), `mj_id`, 'midjourney', `user_id`, `channel_id`, `quota`, `action`, `status`, `fail_reason`,
		`submit_time`, `start_time`, `finish_time`, `progress`, `properties`, `private_data`,
		json_object('code', `code`, 'prompt', `prompt`, 'promptEn', `prompt_en`, 'description', `description`, 'state', `state`, 'imageUrl', `image_url`, 'buttons', `buttons`),
		`request_id`, `cost`
	FROM `midjourneys` ORDER BY `id`;
--> statement-breakpoint
DROP TABLE `midjourneys`;--> statement-breakpoint
CREATE INDEX `tasks_platform_index` ON `tasks` (`platform`);--> statement-breakpoint
CREATE VIEW `midjourneys` AS SELECT `id`, CAST(COALESCE(json_extract(`payload`, '$.code'), 0) AS integer) AS `code`, `user_id`, `action`, `task_id` AS `mj_id`,
		COALESCE(json_extract(`payload`, '$.prompt'), '') AS `prompt`, COALESCE(json_extract(`payload`, '$.promptEn'), '') AS `prompt_en`,
		COALESCE(json_extract(`payload`, '$.description'), '') AS `description`, COALESCE(json_extract(`payload`, '$.state'), '') AS `state`,
		`submit_time`, `start_time`, `finish_time`, COALESCE(json_extract(`payload`, '$.imageUrl'), '') AS `image_url`, `status`, `progress`, `fail_reason`,
		`channel_id`, `quota`, COALESCE(json_extract(`payload`, '$.buttons'), '') AS `buttons`, `properties`, `request_id`, `private_data`, `cost`
	FROM (SELECT *, CASE WHEN json_valid(`data`) THEN `data` ELSE '{}' END AS `payload` FROM `tasks` WHERE `platform` = 'midjourney');
