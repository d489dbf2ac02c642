INSERT INTO "tasks" ("created_at", "updated_at", "task_id", "platform", "user_id", "channel_id", "quota", "action", "status", "fail_reason",
		"submit_time", "start_time", "finish_time", "progress", "properties", "private_data", "data", "request_id", "cost")
	SELECT "submit_time", GREATEST("submit_time", "start_time", "finish_time"), "mj_id", 'midjourney', "user_id", "channel_id", "quota", "action", "status", "fail_reason",
		"submit_time", "start_time", "finish_time", "progress", "properties", "private_data",
		json_build_object('code', "code", 'prompt', "prompt", 'promptEn', "prompt_en", 'description', "description", 'state', "state", 'imageUrl', "image_url", 'buttons', "buttons")::text,
		"request_id", "cost"
	FROM "midjourneys" ORDER BY "id";
--> statement-breakpoint
DROP TABLE "midjourneys" CASCADE;--> statement-breakpoint
CREATE INDEX "tasks_platform_index" ON "tasks" USING btree ("platform");--> statement-breakpoint
CREATE VIEW "midjourneys" AS SELECT "id", COALESCE(("payload" ->> 'code')::bigint, 0) AS "code", "user_id", "action", "task_id" AS "mj_id",
		COALESCE("payload" ->> 'prompt', '') AS "prompt", COALESCE("payload" ->> 'promptEn', '') AS "prompt_en",
		COALESCE("payload" ->> 'description', '') AS "description", COALESCE("payload" ->> 'state', '') AS "state",
		"submit_time", "start_time", "finish_time", COALESCE("payload" ->> 'imageUrl', '') AS "image_url", "status", "progress", "fail_reason",
		"channel_id", "quota", COALESCE("payload" ->> 'buttons', '') AS "buttons", "properties", "request_id", "private_data", "cost"
	FROM (SELECT *, CASE WHEN "data" LIKE '{%' THEN "data"::jsonb ELSE '{}'::jsonb END AS "payload" FROM "tasks" WHERE "platform" = 'midjourney') AS "drawings";
