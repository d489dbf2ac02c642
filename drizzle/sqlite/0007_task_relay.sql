ALTER TABLE `midjourneys` ADD `request_id` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `midjourneys` ADD `private_data` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `midjourneys_request_id_index` ON `midjourneys` (`request_id`);--> statement-breakpoint
CREATE INDEX `midjourneys_unfinished_index` ON `midjourneys` (`channel_id`) WHERE "midjourneys"."status" NOT IN ('SUCCESS', 'FAILURE');--> statement-breakpoint
ALTER TABLE `tasks` ADD `request_id` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `tasks_request_id_index` ON `tasks` (`request_id`);--> statement-breakpoint
CREATE INDEX `tasks_unfinished_index` ON `tasks` (`channel_id`) WHERE "tasks"."status" NOT IN ('SUCCESS', 'FAILURE');