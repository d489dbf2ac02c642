ALTER TABLE `users` ADD `password_set` integer DEFAULT true NOT NULL;--> statement-breakpoint
-- Whether an existing account's password was ever chosen is unknown; an account bound to another service is taken to have none, so unbinding cannot lock it out (setting a password lifts this).
UPDATE `users` SET `password_set` = false WHERE `github_id` <> '' OR `linux_do_id` <> '' OR `oidc_id` <> '' OR `wechat_id` <> '' OR `telegram_id` <> '';
