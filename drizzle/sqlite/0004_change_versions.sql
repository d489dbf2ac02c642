CREATE TABLE `change_versions` (
	`topic` text PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);
