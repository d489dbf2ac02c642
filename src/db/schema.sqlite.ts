/**
 * SQLite twin of the database schema. `schema.pg.ts` declares the same tables with the same
 * property names and column names; `test/db/schema-parity.test.ts` keeps them in step.
 *
 * Conventions shared by both twins: times are unix seconds, money is integer quota, JSON is text,
 * flags are booleans, `deleted_at` set means soft-deleted.
 */
import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, real, sqliteTable, sqliteView, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

const now = sql`(unixepoch())`

export const users = sqliteTable('users', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	username: text('username').notNull(),
	password: text('password').notNull(),
	displayName: text('display_name').notNull().default(''),
	role: integer('role').notNull().default(1),
	status: integer('status').notNull().default(1),
	email: text('email').notNull().default(''),
	githubId: text('github_id').notNull().default(''),
	wechatId: text('wechat_id').notNull().default(''),
	telegramId: text('telegram_id').notNull().default(''),
	linuxDoId: text('linux_do_id').notNull().default(''),
	oidcId: text('oidc_id').notNull().default(''),
	accessTokenHash: text('access_token_hash'),
	accessTokenCipher: text('access_token_cipher'),
	quota: integer('quota').notNull().default(0),
	usedQuota: integer('used_quota').notNull().default(0),
	requestCount: integer('request_count').notNull().default(0),
	group: text('group').notNull().default('default'),
	affCode: text('aff_code').notNull(),
	affCount: integer('aff_count').notNull().default(0),
	affQuota: integer('aff_quota').notNull().default(0),
	affHistoryQuota: integer('aff_history_quota').notNull().default(0),
	inviterId: integer('inviter_id').notNull().default(0),
	/** `QuotaForInviter` owed to the inviter on this account's first paid top-up (InviterRewardOnFirstTopUp); 0: none owed, or paid. */
	pendingInviterReward: integer('pending_inviter_reward').notNull().default(0),
	sessionVersion: integer('session_version').notNull().default(1),
	passwordChangeRequired: integer('password_change_required', { mode: 'boolean' }).notNull().default(false),
	/** False while the password is the random one an account created through another service starts with: nobody knows it. */
	passwordSet: integer('password_set', { mode: 'boolean' }).notNull().default(true),
	createdTime: integer('created_time').notNull().default(now),
	lastLoginTime: integer('last_login_time').notNull().default(0),
	/** When the last low-quota reminder went out (QuotaRemindThreshold); one per 2 hours, on one node. */
	/** Call limits (relay/edge/request-limits.ts); 0 sets none here. */
	rpmLimit: integer('rpm_limit').notNull().default(0),
	tpmLimit: integer('tpm_limit').notNull().default(0),
	rpdLimit: integer('rpd_limit').notNull().default(0),
	concurrencyLimit: integer('concurrency_limit').notNull().default(0),
	quotaRemindedAt: integer('quota_reminded_at').notNull().default(0),
	deletedAt: integer('deleted_at'),
}, (table) => [
	uniqueIndex('users_username_unique').on(table.username),
	uniqueIndex('users_aff_code_unique').on(table.affCode),
	uniqueIndex('users_access_token_hash_unique').on(table.accessTokenHash),
	// One live account per outside identity; empty means not bound.
	uniqueIndex('users_github_id_unique').on(table.githubId).where(sql`${table.githubId} <> '' and ${table.deletedAt} is null`),
	uniqueIndex('users_wechat_id_unique').on(table.wechatId).where(sql`${table.wechatId} <> '' and ${table.deletedAt} is null`),
	uniqueIndex('users_telegram_id_unique').on(table.telegramId).where(sql`${table.telegramId} <> '' and ${table.deletedAt} is null`),
	uniqueIndex('users_linux_do_id_unique').on(table.linuxDoId).where(sql`${table.linuxDoId} <> '' and ${table.deletedAt} is null`),
	uniqueIndex('users_oidc_id_unique').on(table.oidcId).where(sql`${table.oidcId} <> '' and ${table.deletedAt} is null`),
	index('users_email_index').on(table.email),
	index('users_inviter_id_index').on(table.inviterId),
])

export const options = sqliteTable('options', {
	key: text('key').primaryKey(),
	value: text('value').notNull(),
})

export const tokens = sqliteTable('tokens', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	userId: integer('user_id').notNull(),
	keyHash: text('key_hash').notNull(),
	keyCipher: text('key_cipher').notNull(),
	status: integer('status').notNull().default(1),
	name: text('name').notNull().default(''),
	createdTime: integer('created_time').notNull().default(now),
	accessedTime: integer('accessed_time').notNull().default(0),
	expiredTime: integer('expired_time').notNull().default(-1),
	remainQuota: integer('remain_quota').notNull().default(0),
	unlimitedQuota: integer('unlimited_quota', { mode: 'boolean' }).notNull().default(false),
	modelLimitsEnabled: integer('model_limits_enabled', { mode: 'boolean' }).notNull().default(false),
	modelLimits: text('model_limits').notNull().default(''),
	allowIps: text('allow_ips').notNull().default(''),
	usedQuota: integer('used_quota').notNull().default(0),
	group: text('group').notNull().default(''),
	/** Call limits (relay/edge/request-limits.ts); 0 sets none here. */
	rpmLimit: integer('rpm_limit').notNull().default(0),
	tpmLimit: integer('tpm_limit').notNull().default(0),
	rpdLimit: integer('rpd_limit').notNull().default(0),
	/** Calls of this token in flight at once; 0: no limit. */
	concurrencyLimit: integer('concurrency_limit').notNull().default(0),
	/** Spend limits over rolling windows (billing/token-windows.ts), JSON `[{seconds, quota}]`; `[]`: none. */
	quotaWindows: text('quota_windows').notNull().default('[]'),
	/** Whether the token's calls use the response cache (when it is on); false opts out. */
	responseCacheEnabled: integer('response_cache_enabled', { mode: 'boolean' }).notNull().default(true),
	deletedAt: integer('deleted_at'),
}, (table) => [
	uniqueIndex('tokens_key_hash_unique').on(table.keyHash),
	index('tokens_user_id_index').on(table.userId),
	index('tokens_name_index').on(table.name),
])

export const channels = sqliteTable('channels', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	type: integer('type').notNull().default(1),
	/**
	 * Sealed (SecretBox). A single-key channel's key; a multi-key channel keeps its keys in
	 * `channel_keys` and here a sealed copy of its lowest-index key, so that a reader needing one
	 * working key of any channel (task polling) still has one.
	 */
	key: text('key').notNull(),
	openaiOrganization: text('openai_organization').notNull().default(''),
	testModel: text('test_model').notNull().default(''),
	status: integer('status').notNull().default(1),
	name: text('name').notNull().default(''),
	weight: integer('weight').notNull().default(0),
	createdTime: integer('created_time').notNull().default(now),
	testTime: integer('test_time').notNull().default(0),
	responseTime: integer('response_time').notNull().default(0),
	baseUrl: text('base_url').notNull().default(''),
	other: text('other').notNull().default(''),
	balance: real('balance').notNull().default(0),
	balanceUpdatedTime: integer('balance_updated_time').notNull().default(0),
	models: text('models').notNull().default(''),
	group: text('group').notNull().default('default'),
	usedQuota: integer('used_quota').notNull().default(0),
	modelMapping: text('model_mapping').notNull().default(''),
	statusCodeMapping: text('status_code_mapping').notNull().default(''),
	priority: integer('priority').notNull().default(0),
	autoBan: integer('auto_ban').notNull().default(1),
	otherInfo: text('other_info').notNull().default(''),
	tag: text('tag').notNull().default(''),
	setting: text('setting').notNull().default(''),
	maxInputTokens: integer('max_input_tokens').notNull().default(0),
	expiredTime: integer('expired_time').notNull().default(0),
	/** CHANNEL_MODE: `single` or `multi_key`. */
	mode: text('mode').notNull().default('single'),
	/** MULTI_KEY_MODE: `random` or `polling`. */
	multiKeyMode: text('multi_key_mode').notNull().default('random'),
	/** The `position` the next added key gets: positions are never reused, even after deletions. */
	nextKeyIndex: integer('next_key_index').notNull().default(0),
	/** What the operator pays the upstream, as a multiple of the model's list price before group ratios; null: unknown. */
	costRatio: real('cost_ratio'),
	/** JSON `{model: {input?, output?, cache_read?, per_call?}}`: USD per million tokens or per call; wins over `cost_ratio`. */
	modelCost: text('model_cost').notNull().default(''),
	/** Whether the scheduled health check tests the channel (an admin's tests always may). */
	scheduledTestEnabled: integer('scheduled_test_enabled', { mode: 'boolean' }).notNull().default(true),
	/** Health checks failed in a row since the last pass or the last disable it caused (ChannelTestFailuresToDisable). */
	healthFailures: integer('health_failures').notNull().default(0),
}, (table) => [
	index('channels_name_index').on(table.name),
	index('channels_tag_index').on(table.tag),
])

/**
 * The keys of multi-key channels (single-key channels have no rows here). `position` is the key's
 * `#index`, taken from `channels.next_key_index` and never reused, so `{channel, index}` stays a
 * valid reference after deletions. `digest` (HMAC) finds duplicates without the key; `hint` is a
 * masked tail safe to show. `status` takes the channel statuses (1 enabled, 2 disabled by hand,
 * 3 auto-disabled); `status_reason` is JSON like a channel's `other_info` reason
 * (`status_reason`, `status_reason_line`), empty when enabled.
 */
export const channelKeys = sqliteTable('channel_keys', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	channelId: integer('channel_id').notNull(),
	position: integer('position').notNull(),
	key: text('key').notNull(),
	digest: text('digest').notNull(),
	hint: text('hint').notNull().default(''),
	status: integer('status').notNull().default(1),
	statusReason: text('status_reason').notNull().default(''),
	statusTime: integer('status_time').notNull().default(0),
	/** Scrubbed, at most KEY_LAST_ERROR_MAX_LENGTH characters: plain text, or a catalogue message as JSON `{text, values}`. */
	lastError: text('last_error').notNull().default(''),
	responseTime: integer('response_time').notNull().default(0),
	testTime: integer('test_time').notNull().default(0),
	createdTime: integer('created_time').notNull().default(now),
}, (table) => [
	// Also the index of a channel's keys (channel_id leads).
	uniqueIndex('channel_keys_position_unique').on(table.channelId, table.position),
	uniqueIndex('channel_keys_digest_unique').on(table.channelId, table.digest),
])

/**
 * Keys cooling down after an upstream asked to be left alone (429/503 with Retry-After, or a run
 * of failures), so that every node leaves them alone: written when a node starts a cooldown, read
 * by the others when told of it (change topic `health`). `until` is in milliseconds since the
 * epoch; a row past it means nothing and is swept.
 */
export const keyCooldowns = sqliteTable('key_cooldowns', {
	channelId: integer('channel_id').notNull(),
	keyIndex: integer('key_index').notNull(),
	until: integer('until').notNull(),
}, (table) => [primaryKey({ columns: [table.channelId, table.keyIndex] })])

export const abilities = sqliteTable('abilities', {
	group: text('group').notNull(),
	model: text('model').notNull(),
	channelId: integer('channel_id').notNull(),
	enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
	priority: integer('priority').notNull().default(0),
	weight: integer('weight').notNull().default(0),
	tag: text('tag').notNull().default(''),
}, (table) => [
	primaryKey({ columns: [table.group, table.model, table.channelId] }),
	index('abilities_channel_id_index').on(table.channelId),
])

export const logs = sqliteTable('logs', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	userId: integer('user_id').notNull().default(0),
	createdAt: integer('created_at').notNull().default(now),
	type: integer('type').notNull().default(0),
	content: text('content').notNull().default(''),
	username: text('username').notNull().default(''),
	tokenName: text('token_name').notNull().default(''),
	tokenId: integer('token_id').notNull().default(0),
	modelName: text('model_name').notNull().default(''),
	quota: integer('quota').notNull().default(0),
	promptTokens: integer('prompt_tokens').notNull().default(0),
	completionTokens: integer('completion_tokens').notNull().default(0),
	useTime: integer('use_time').notNull().default(0),
	isStream: integer('is_stream', { mode: 'boolean' }).notNull().default(false),
	channelId: integer('channel_id').notNull().default(0),
	channelName: text('channel_name').notNull().default(''),
	group: text('group').notNull().default(''),
	ip: text('ip').notNull().default(''),
	requestId: text('request_id').notNull().default(''),
	other: text('other').notNull().default(''),
	/** What the call cost the operator, in quota (consume rows); null: the channel's cost is unknown. */
	cost: integer('cost'),
	/** The subscription that paid the call (consume rows); 0: the wallet. */
	subscriptionId: integer('subscription_id').notNull().default(0),
}, (table) => [
	index('logs_user_id_id_index').on(table.userId, table.id),
	index('logs_created_at_type_index').on(table.createdAt, table.type),
	index('logs_model_name_username_index').on(table.modelName, table.username),
	// Every index here is written on every billed call; keep only those the log filters need.
])

export const redemptions = sqliteTable('redemptions', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	userId: integer('user_id').notNull().default(0),
	key: text('key').notNull(),
	status: integer('status').notNull().default(1),
	name: text('name').notNull().default(''),
	quota: integer('quota').notNull().default(100000),
	createdTime: integer('created_time').notNull().default(now),
	redeemedTime: integer('redeemed_time').notNull().default(0),
	usedUserId: integer('used_user_id').notNull().default(0),
	expiredTime: integer('expired_time').notNull().default(0),
	/** A code that grants this plan (its id) instead of quota; 0: a quota code. */
	planId: integer('plan_id').notNull().default(0),
	deletedAt: integer('deleted_at'),
}, (table) => [
	uniqueIndex('redemptions_key_unique').on(table.key),
	index('redemptions_name_index').on(table.name),
])

export const topUps = sqliteTable('top_ups', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	userId: integer('user_id').notNull(),
	amount: integer('amount').notNull().default(0),
	money: real('money').notNull().default(0),
	tradeNo: text('trade_no').notNull(),
	paymentMethod: text('payment_method').notNull().default(''),
	createTime: integer('create_time').notNull().default(now),
	completeTime: integer('complete_time').notNull().default(0),
	status: text('status').notNull().default('pending'),
	/** An order for this plan (its id) rather than for quota; 0: a top-up. */
	planId: integer('plan_id').notNull().default(0),
	/**
	 * The quota a top-up order promised when it was opened, credited as it is by the payment's
	 * notify whatever the options say by then; null on orders opened before it was recorded.
	 */
	quota: integer('quota'),
	/**
	 * A plan order's terms as the plan offered them when the order was opened (JSON, read by
	 * billing/subscriptions.ts), granted as they are by the payment's notify whatever the plan says
	 * by then; null on top-ups and on plan orders opened before the terms were recorded.
	 */
	planTerms: text('plan_terms'),
}, (table) => [
	uniqueIndex('top_ups_trade_no_unique').on(table.tradeNo),
	index('top_ups_user_id_index').on(table.userId),
])

/**
 * The drawing tasks as their own table held them until migration 0013 moved them into `tasks`
 * (platform `midjourney`, the drawing's own fields in `data`): a read-only view, kept for operators' queries.
 * Ferry itself reads and writes `tasks` (db/stores/drawings.ts).
 */
export const midjourneys = sqliteView('midjourneys', {
	id: integer('id').notNull(),
	code: integer('code').notNull(),
	userId: integer('user_id').notNull(),
	action: text('action').notNull(),
	mjId: text('mj_id').notNull(),
	prompt: text('prompt').notNull(),
	promptEn: text('prompt_en').notNull(),
	description: text('description').notNull(),
	state: text('state').notNull(),
	submitTime: integer('submit_time').notNull(),
	startTime: integer('start_time').notNull(),
	finishTime: integer('finish_time').notNull(),
	imageUrl: text('image_url').notNull(),
	status: text('status').notNull(),
	progress: text('progress').notNull(),
	failReason: text('fail_reason').notNull(),
	channelId: integer('channel_id').notNull(),
	quota: integer('quota').notNull(),
	buttons: text('buttons').notNull(),
	properties: text('properties').notNull(),
	requestId: text('request_id').notNull(),
	privateData: text('private_data').notNull(),
	cost: integer('cost'),
}).existing()

export const tasks = sqliteTable('tasks', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	createdAt: integer('created_at').notNull().default(now),
	updatedAt: integer('updated_at').notNull().default(now),
	taskId: text('task_id').notNull().default(''),
	/** Which adaptor runs it: `midjourney` (drawing), `suno`, `video` (@shared/task-constants TASK_PLATFORM). */
	platform: text('platform').notNull().default(''),
	userId: integer('user_id').notNull().default(0),
	group: text('group').notNull().default(''),
	channelId: integer('channel_id').notNull().default(0),
	quota: integer('quota').notNull().default(0),
	action: text('action').notNull().default(''),
	status: text('status').notNull().default(''),
	failReason: text('fail_reason').notNull().default(''),
	submitTime: integer('submit_time').notNull().default(0),
	startTime: integer('start_time').notNull().default(0),
	finishTime: integer('finish_time').notNull().default(0),
	progress: text('progress').notNull().default(''),
	properties: text('properties').notNull().default(''),
	privateData: text('private_data').notNull().default(''),
	/** The platform's own result as JSON: a drawing's image, prompt and buttons (db/stores/drawings.ts), Suno's clips. */
	data: text('data').notNull().default(''),
	/** The ledger hold the task lives on (docs/architecture.md#the-ledger); empty for a free task. */
	requestId: text('request_id').notNull().default(''),
	/** What the task costs the operator, in quota; null: unknown. */
	cost: integer('cost'),
}, (table) => [
	index('tasks_task_id_index').on(table.taskId),
	index('tasks_user_id_index').on(table.userId),
	index('tasks_submit_time_index').on(table.submitTime),
	index('tasks_request_id_index').on(table.requestId),
	index('tasks_platform_index').on(table.platform),
	index('tasks_unfinished_index').on(table.channelId).where(sql`${table.status} NOT IN ('SUCCESS', 'FAILURE')`),
])

/**
 * Which channel and key created a Responses API response an upstream keeps (db/stores/kept-responses.ts):
 * a continuation, read, cancel or delete of it goes there. Not tasks: nothing is billed here.
 */
export const keptResponses = sqliteTable('kept_responses', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	createdAt: integer('created_at').notNull().default(now),
	responseId: text('response_id').notNull(),
	userId: integer('user_id').notNull(),
	channelId: integer('channel_id').notNull(),
	/** The key (`#index`) that created it: an upstream keeps a response for the key's organisation only. */
	keyIndex: integer('key_index').notNull().default(0),
}, (table) => [
	index('kept_responses_response_id_index').on(table.responseId),
])

export const quotaData = sqliteTable('quota_data', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	userId: integer('user_id').notNull(),
	username: text('username').notNull().default(''),
	modelName: text('model_name').notNull().default(''),
	createdAt: integer('created_at').notNull(),
	tokenUsed: integer('token_used').notNull().default(0),
	count: integer('count').notNull().default(0),
	quota: integer('quota').notNull().default(0),
}, (table) => [
	uniqueIndex('quota_data_bucket_unique').on(table.userId, table.modelName, table.createdAt),
	index('quota_data_created_at_index').on(table.createdAt),
])

/** One row per request that may cost money: the ledger's reserve / settle / void (docs/architecture.md#the-ledger). */
export const quotaHolds = sqliteTable('quota_holds', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	requestId: text('request_id').notNull(),
	userId: integer('user_id').notNull(),
	tokenId: integer('token_id').notNull().default(0),
	tokenLimited: integer('token_limited', { mode: 'boolean' }).notNull().default(false),
	amount: integer('amount').notNull(),
	charged: integer('charged').notNull().default(0),
	state: text('state').notNull().default('pending'),
	reason: text('reason').notNull().default(''),
	node: text('node').notNull().default(''),
	createdAt: integer('created_at').notNull().default(now),
	deadline: integer('deadline').notNull(),
	closedAt: integer('closed_at').notNull().default(0),
	/** The funding source: the subscription the hold was taken from, 0 for the wallet. */
	subscriptionId: integer('subscription_id').notNull().default(0),
	/** A subscription's hold: the ids of the window periods it took from, comma-separated (one per window). */
	periods: text('periods').notNull().default(''),
	/** The ids of the token's window periods the hold took from, comma-separated (one per window of the token); empty: none. */
	tokenPeriods: text('token_periods').notNull().default(''),
}, (table) => [
	uniqueIndex('quota_holds_request_id_unique').on(table.requestId),
	// Only pending holds are looked for (the reconciler); settled ones leave this small index.
	index('quota_holds_pending_deadline_index').on(table.deadline).where(sql`${table.state} = 'pending'`),
])

/**
 * Settled holds rolled up (billing/roll-up.ts): what closed holds of one user with one token (0 for
 * none) charged in all, so `quota_holds` keeps only recent rows while the ledger audit sums these
 * totals with the settled holds still there.
 */
export const quotaHoldTotals = sqliteTable('quota_hold_totals', {
	userId: integer('user_id').notNull(),
	tokenId: integer('token_id').notNull().default(0),
	charged: integer('charged').notNull().default(0),
	holds: integer('holds').notNull().default(0),
}, (table) => [
	primaryKey({ columns: [table.userId, table.tokenId] }),
])

/**
 * Plans (billing/subscriptions.ts): a price for a period with usage windows. `windows` is JSON
 * `[{seconds, quota}]` (1 to 8); `models` is comma-separated, empty for every model; `group`, when
 * set, is the group a subscriber is in while subscribed. Subscriptions copy the terms they were
 * bought with, so editing or deleting a plan never changes them.
 */
export const plans = sqliteTable('plans', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	name: text('name').notNull(),
	price: integer('price').notNull().default(0),
	durationSeconds: integer('duration_seconds').notNull(),
	windows: text('windows').notNull(),
	models: text('models').notNull().default(''),
	group: text('group').notNull().default(''),
	enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
	createdTime: integer('created_time').notNull().default(now),
	updatedTime: integer('updated_time').notNull().default(now),
	deletedAt: integer('deleted_at'),
})

/**
 * A user's subscription to a plan, with the plan's terms as they were when it was granted.
 * `source` says how it came (wallet, epay, redemption, default, admin) and `reference` makes each
 * grant happen once (a payment's trade number, a code's id). `rolled_up` is what settled holds
 * rolled up out of `quota_holds` charged it (billing/roll-up.ts), for the audit.
 */
export const subscriptions = sqliteTable('subscriptions', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	userId: integer('user_id').notNull(),
	planId: integer('plan_id').notNull(),
	name: text('name').notNull(),
	price: integer('price').notNull().default(0),
	source: text('source').notNull(),
	reference: text('reference').notNull(),
	models: text('models').notNull().default(''),
	group: text('group').notNull().default(''),
	windows: text('windows').notNull(),
	startsAt: integer('starts_at').notNull(),
	expiresAt: integer('expires_at').notNull(),
	createdAt: integer('created_at').notNull().default(now),
	rolledUp: integer('rolled_up').notNull().default(0),
}, (table) => [
	uniqueIndex('subscriptions_reference_unique').on(table.reference),
	index('subscriptions_user_id_index').on(table.userId),
	index('subscriptions_expires_at_index').on(table.expiresAt),
])

/** The columns every spend-window period shares (a plan subscription's, a token's): fresh builders for each table. */
const periodColumns = () => ({
	userId: integer('user_id').notNull(),
	windowIndex: integer('window_index').notNull(),
	sequence: integer('sequence').notNull(),
	quota: integer('quota').notNull(),
	used: integer('used').notNull().default(0),
	held: integer('held').notNull().default(0),
	remain: integer('remain').notNull(),
	startedAt: integer('started_at').notNull(),
	endsAt: integer('ends_at').notNull(),
})

/**
 * One period of one usage window of a subscription: a window's allowance starts at its first use
 * and runs `seconds`; the next use after `ends_at` starts the next period (`sequence` + 1). The
 * ledger keeps `quota = used + held + remain` for every period: holds move `remain` to `held`,
 * settling moves `held` to `used` (the rest back to `remain`). A hold stays with the periods it
 * was taken from, so a call spanning a reset is charged where it began.
 */
export const subscriptionPeriods = sqliteTable('subscription_periods', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	subscriptionId: integer('subscription_id').notNull(),
	...periodColumns(),
}, (table) => [
	uniqueIndex('subscription_periods_sequence_unique').on(table.subscriptionId, table.windowIndex, table.sequence),
	index('subscription_periods_subscription_ends_index').on(table.subscriptionId, table.endsAt),
])

/**
 * One period of one spend window of an API token, kept like a subscription's periods (above): the
 * first call after the last period ended starts the next one with the full limit, and
 * `quota = used + held + remain` always holds. `window_index` records the window's length in
 * seconds: a token's windows have distinct lengths, so an edit of the list keeps each one's period.
 */
export const tokenPeriods = sqliteTable('token_periods', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	tokenId: integer('token_id').notNull(),
	...periodColumns(),
}, (table) => [
	uniqueIndex('token_periods_sequence_unique').on(table.tokenId, table.windowIndex, table.sequence),
	index('token_periods_token_ends_index').on(table.tokenId, table.endsAt),
])

/** Background jobs take a lease so exactly one node runs each (docs/operations/several-nodes.md). */
export const leases = sqliteTable('leases', {
	name: text('name').primaryKey(),
	holder: text('holder').notNull(),
	expiresAt: integer('expires_at').notNull(),
})

/**
 * One counter per kind of cached record (channels, tokens, users, options), bumped after every
 * change. Each node polls it to drop its caches when another node changed something (docs/operations/several-nodes.md).
 */
export const changeVersions = sqliteTable('change_versions', {
	topic: text('topic').primaryKey(),
	version: integer('version').notNull().default(0),
})

/** Short-lived one-time codes: email verification codes and password-reset tokens. */
export const verifications = sqliteTable('verifications', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	purpose: text('purpose').notNull(),
	target: text('target').notNull(),
	codeHash: text('code_hash').notNull(),
	expiresAt: integer('expires_at').notNull(),
	createdAt: integer('created_at').notNull().default(now),
}, (table) => [
	index('verifications_purpose_target_index').on(table.purpose, table.target),
])
