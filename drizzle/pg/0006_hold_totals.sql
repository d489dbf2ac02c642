CREATE TABLE "quota_hold_totals" (
	"user_id" bigint NOT NULL,
	"token_id" bigint DEFAULT 0 NOT NULL,
	"charged" bigint DEFAULT 0 NOT NULL,
	"holds" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "quota_hold_totals_user_id_token_id_pk" PRIMARY KEY("user_id","token_id")
);
