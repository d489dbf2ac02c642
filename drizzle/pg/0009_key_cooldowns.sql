CREATE TABLE "key_cooldowns" (
	"channel_id" bigint NOT NULL,
	"key_index" bigint NOT NULL,
	"until" bigint NOT NULL,
	CONSTRAINT "key_cooldowns_channel_id_key_index_pk" PRIMARY KEY("channel_id","key_index")
);
--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "concurrency_limit" bigint DEFAULT 0 NOT NULL;