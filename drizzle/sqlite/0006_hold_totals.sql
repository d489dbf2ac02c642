CREATE TABLE `quota_hold_totals` (
	`user_id` integer NOT NULL,
	`token_id` integer DEFAULT 0 NOT NULL,
	`charged` integer DEFAULT 0 NOT NULL,
	`holds` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `token_id`)
);
