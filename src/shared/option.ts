/**
 * The typed registry of runtime options (docs/specification/accounts-and-settings.md#options). Values travel and are stored as strings;
 * each key knows how to parse and check its text, its default, and whether it is a secret that
 * `GET /api/option/` never returns.
 */
import { z } from 'zod'
import { DEFAULT_COMPLETION_RATIO, DEFAULT_MODEL_PRICE, DEFAULT_MODEL_RATIO } from './default-prices'
import { MAX_ROW_ID } from './api-constants'
import { MAX_QUOTA } from './quota-limit'
import { MAX_RATIO, modelPriceTiersEntrySchema, PRICE_TIERS_EXAMPLE, tiersRise, type ModelPriceTiers, type ModelPriceTiersEntry } from './price-tiers'
import { RATE_LIMIT_MAX, rateLimitLevelSchema, type RateLimitLevel } from './rate-limit'
import { AFFINITY_MAX_ENTRIES_DEFAULT, AFFINITY_MAX_ENTRIES_MAX, AFFINITY_TTL_SECONDS_DEFAULT, AFFINITY_TTL_SECONDS_MAX, affinityRulesSchema, groupRoutingPolicySchema } from './routing'
import { DATA_EXPORT_GRANULARITIES } from './quota-data-constants'
import { OPTION_MESSAGES } from './messages/options'
import { inEnglish, nested, withValues, type ServerMessage } from './messages'

/** A value an option's rule refuses; `reason` says why, in the catalogue (its English is the error's message). */
export class OptionValueError extends Error {
	constructor(readonly reason: ServerMessage) {
		super(inEnglish(reason))
	}
}

export interface OptionDefinition<Value> {
	defaultValue: Value
	parse(text: string): Value
	format(value: Value): string
	secret: boolean
}

function define<Value>(defaultValue: Value, parse: (text: string) => Value, format: (value: Value) => string, secret = false): OptionDefinition<Value> {
	return { defaultValue, parse, format, secret }
}

const boolean = (defaultValue: boolean) => define(defaultValue, (text) => {
	if (text === 'true' || text === 'false') return text === 'true'
	throw new OptionValueError(OPTION_MESSAGES.notBoolean)
}, String)

function numeric(defaultValue: number, { min, max, integer }: { min?: number; max?: number; integer?: boolean }) {
	return define(defaultValue, (text) => {
		const value = Number(text)
		if (text.trim() === '' || !Number.isFinite(value)) throw new OptionValueError(OPTION_MESSAGES.notNumber)
		if (integer && !Number.isInteger(value)) throw new OptionValueError(OPTION_MESSAGES.notWholeNumber)
		if (min !== undefined && value < min) throw new OptionValueError(withValues(OPTION_MESSAGES.belowMinimum, { min }))
		if (max !== undefined && value > max) throw new OptionValueError(withValues(OPTION_MESSAGES.aboveMaximum, { max }))
		return value
	}, String)
}
const integer = (defaultValue: number, min: number, max: number) => numeric(defaultValue, { min, max, integer: true })
const decimal = (defaultValue: number, min: number, max: number) => numeric(defaultValue, { min, max })
/** An amount of quota: a whole number from 0 to MAX_QUOTA. */
const quota = (defaultValue: number) => numeric(defaultValue, { min: 0, max: MAX_QUOTA, integer: true })

const text = (defaultValue = '', { secret = false, stripTrailingSlash = false } = {}) =>
	define(defaultValue, (value) => stripTrailingSlash ? value.trim().replace(/\/+$/, '') : value, String, secret)
const secret = () => text('', { secret: true })
/** Text that must say something (not blank), of at most `max` characters. */
const filledText = (defaultValue: string, max: number) => define(defaultValue, (value) => {
	if (!value.trim()) throw new OptionValueError(OPTION_MESSAGES.blank)
	if (value.length > max) throw new OptionValueError(withValues(OPTION_MESSAGES.tooLong, { max }))
	return value
}, String)
const address = () => text('', { stripTrailingSlash: true })
const choice = <Choice extends string>(choices: readonly Choice[], defaultValue: Choice) => define(defaultValue, (value) => {
	if ((choices as readonly string[]).includes(value)) return value as Choice
	throw new OptionValueError(withValues(OPTION_MESSAGES.notAChoice, { choices: choices.join(', ') }))
}, String)

/** The schema's wording of the first problem in both languages (zod words it; its Chinese locale too). */
function shapeProblem(schema: z.ZodType, parsed: unknown, error: z.ZodError) {
	const chinese = schema.safeParse(parsed, { error: z.locales.zhCN().localeError })
	const english = error.issues[0]?.message ?? 'unexpected shape'
	return { zh: chinese.success ? english : chinese.error.issues[0]?.message ?? english, en: english }
}

function json<Schema extends z.ZodType>(schema: Schema, defaultValue: z.infer<Schema>) {
	return define(defaultValue, (value) => {
		let parsed: unknown
		try {
			parsed = JSON.parse(value)
		} catch {
			throw new OptionValueError(OPTION_MESSAGES.notJson)
		}
		const checked = schema.safeParse(parsed)
		if (!checked.success) throw new OptionValueError(withValues(OPTION_MESSAGES.jsonShape, { detail: shapeProblem(schema, parsed, checked.error) }))
		return checked.data
	}, (parsed) => JSON.stringify(parsed))
}

/*
 * Every number an option holds is bounded, so no product of them (a price is model price or
 * ratios × group ratio × QuotaPerUnit) can overflow, and the bounds sit far above any real price.
 * A stored value outside them is not read (the option keeps its default, see db/stores/options.ts);
 * `billing/price.ts` caps a price at MAX_QUOTA, which the largest bounded values together pass.
 */
/** Any ratio: model, completion, cache, audio, group and top-up group ratios (declared with the price tiers). */
export { MAX_RATIO }
/** `ModelPrice`, in dollars a call. */
export const MAX_MODEL_PRICE = 10_000
/** `QuotaPerUnit`: quota a dollar (the default is 500 000). */
export const MAX_QUOTA_PER_UNIT = 1_000_000_000
/** `PreConsumedQuota`: the completion tokens a hold assumes when the call names no limit. */
export const MAX_PRE_CONSUMED_TOKENS = 100_000_000
/** Money and exchange rates (`Price`, `USDExchangeRate`). */
const MAX_MONEY_RATE = 1_000_000
/** Intervals run on timers, which cannot wait longer than 2^31 ms (24.8 days): a week at most. */
const MAX_INTERVAL_MINUTES = 10_080
const MAX_INTERVAL_SECONDS = MAX_INTERVAL_MINUTES * 60
const MAX_RETRY_TIMES = 100
/** `RegisterAddressLimit`: new accounts per address and window. */
const MAX_REGISTER_ADDRESS_LIMIT = 10_000
/** `RegisterAddressWindowHours`: 30 days at most. */
const MAX_REGISTER_WINDOW_HOURS = 720
const MAX_TASK_TIMEOUT_MINUTES = 525_600
const MAX_RETENTION_DAYS = 36_500
const MAX_PORT = 65_535
/** Chunks a stream reads ahead; the relay caps it lower still. */
const MAX_STREAM_QUEUE_LENGTH = 100_000
/** The response cache's bound: 16 GiB (Redis or this process's memory holds it). */
const MAX_RESPONSE_CACHE_BYTES = 16 * 1024 * 1024 * 1024
/** `ChannelTestPrompt`: a short message, sent on every test. */
export const MAX_CHANNEL_TEST_PROMPT_LENGTH = 4096
/** `ChannelTestFailuresToDisable`: at the longest interval, 100 checks span well over a year. */
const MAX_TEST_FAILURES_TO_DISABLE = 100

/**
 * `{name: number}` with every number from 0 to `max` (or, `nested`, `{name: {name: number}}`). The
 * message names the first entry out of range; any other shape gets the schema's own wording.
 */
function numberMap(defaultValue: Record<string, number>, max: number): OptionDefinition<Record<string, number>>
function numberMap(defaultValue: Record<string, Record<string, number>>, max: number, nested: true): OptionDefinition<Record<string, Record<string, number>>>
function numberMap(defaultValue: object, max: number, nested = false) {
	const number = z.number().min(0).max(max)
	const schema: z.ZodType = nested ? z.record(z.string(), z.record(z.string(), number)) : z.record(z.string(), number)
	return define(defaultValue, (value) => {
		let parsed: unknown
		try {
			parsed = JSON.parse(value)
		} catch {
			throw new OptionValueError(OPTION_MESSAGES.notJson)
		}
		const checked = schema.safeParse(parsed)
		if (checked.success) return checked.data as object
		const issue = checked.error.issues[0]
		if (issue && (issue.code === 'too_big' || issue.code === 'too_small' || (issue.code === 'invalid_type' && issue.expected === 'number'))) {
			throw new OptionValueError(withValues(OPTION_MESSAGES.numberMapEntry, { max, name: issue.path.join('.') }))
		}
		throw new OptionValueError(withValues(OPTION_MESSAGES.jsonShape, { detail: shapeProblem(schema, parsed, checked.error) }))
	}, (parsed) => JSON.stringify(parsed))
}

const stringMap = z.record(z.string(), z.string())
/**
 * `min_topup`: the least a top-up with the method buys, in dollars as `MinTopUp` (the larger of the
 * two applies); new-api writes it as numeric text, which is read as its number.
 */
const minTopUp = z.union([z.number(), z.string().trim().regex(/^\d+(\.\d+)?$/).transform(Number)]).pipe(z.number().min(0).max(MAX_QUOTA))
const payMethods = z.array(z.object({ name: z.string(), type: z.string(), color: z.string().optional(), min_topup: minTopUp.optional() }))
const chats = z.array(stringMap)

export { DATA_EXPORT_GRANULARITIES }

/** A window of at most a week, and counts that stay exact integers in Redis and in memory. */
const MAX_RATE_LIMIT_MINUTES = 10_080
const MAX_RATE_LIMIT_COUNT = 2_147_483_647
const RATE_LIMIT_GROUPS_EXAMPLE = '{"vip": [100, 80]}'

/** `{group: [total, success]}`: each group's own two request limits, whole numbers from 0 (no limit). */
function rateLimitGroups() {
	const limit = z.number().int().min(0).max(MAX_RATE_LIMIT_COUNT)
	const schema = z.record(z.string().min(1), z.tuple([limit, limit]))
	return define<Record<string, [number, number]>>({}, (value) => {
		let parsed: unknown
		try {
			parsed = JSON.parse(value)
		} catch {
			throw new OptionValueError(OPTION_MESSAGES.notJson)
		}
		const checked = schema.safeParse(parsed)
		if (checked.success) return checked.data
		const group = checked.error.issues[0]?.path[0]
		throw new OptionValueError(typeof group === 'string'
			? withValues(OPTION_MESSAGES.rateLimitGroupRefused, { max: MAX_RATE_LIMIT_COUNT, example: RATE_LIMIT_GROUPS_EXAMPLE, group })
			: withValues(OPTION_MESSAGES.rateLimitGroups, { max: MAX_RATE_LIMIT_COUNT, example: RATE_LIMIT_GROUPS_EXAMPLE }))
	}, (parsed) => JSON.stringify(parsed))
}

/**
 * `{name: entry}` with each entry checked by `entry`; the message names the first entry refused and
 * why (the schema's wording, or `extra`'s), with an example of a valid value.
 */
function namedEntries<Entry>(entry: z.ZodType<Entry>, refused: (name: string, detail: ServerMessage | { zh: string; en: string }) => ServerMessage, extra?: (value: Entry) => ServerMessage | undefined) {
	return define<Record<string, Entry>>({}, (value) => {
		let parsed: unknown
		try {
			parsed = JSON.parse(value)
		} catch {
			throw new OptionValueError(OPTION_MESSAGES.notJson)
		}
		if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new OptionValueError(OPTION_MESSAGES.notJson)
		const checked: Record<string, Entry> = {}
		for (const [name, item] of Object.entries(parsed)) {
			const result = entry.safeParse(item)
			if (!result.success) throw new OptionValueError(refused(name, shapeProblem(entry, item, result.error)))
			const problem = extra?.(result.data)
			if (problem) throw new OptionValueError(refused(name, problem))
			checked[name] = result.data
		}
		return checked
	}, (parsed) => JSON.stringify(parsed))
}

const CALL_LIMITS_EXAMPLE = '{"vip": {"rpm": 60, "tpm": 100000}}'
const callLimits = () => namedEntries<RateLimitLevel>(rateLimitLevelSchema,
	(name, detail) => withValues(OPTION_MESSAGES.callLimitsRefused, { max: RATE_LIMIT_MAX, example: CALL_LIMITS_EXAMPLE, name, detail: nestedDetail(detail) }))
const priceTiers = () => namedEntries<ModelPriceTiersEntry>(modelPriceTiersEntrySchema,
	(name, detail) => withValues(OPTION_MESSAGES.priceTiersRefused, { example: PRICE_TIERS_EXAMPLE, name, detail: nestedDetail(detail) }),
	(entry) => (tiersRise(entry) ? undefined : OPTION_MESSAGES.priceTiersOrder)) as OptionDefinition<ModelPriceTiers>

/** A problem as a message value: the schema's own words in both languages, or a catalogue message. */
function nestedDetail(detail: ServerMessage | { zh: string; en: string }) {
	return typeof detail === 'object' && 'zh' in detail ? detail : nested(detail)
}

export const DEFAULT_AUTOMATIC_DISABLE_KEYWORDS = [
	'your credit balance is too low',
	'this organization has been disabled',
	'you exceeded your current quota',
	'permission denied',
	'the security token included in the request is invalid',
	'operation not allowed',
	'your account is not authorized',
	// Gemini answers an invalid key with 400, not 401.
	'api key not valid',
].join('\n')

export const OPTION_DEFINITIONS = {
	// Login and registration
	PasswordLoginEnabled: boolean(true),
	PasswordRegisterEnabled: boolean(true),
	RegisterEnabled: boolean(true),
	EmailVerificationEnabled: boolean(false),
	EmailDomainRestrictionEnabled: boolean(false),
	EmailAliasRestrictionEnabled: boolean(false),
	EmailDomainWhitelist: text('gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com'),
	/** New accounts one client address (an IPv6 /64 as one) may open per window, by password or another service; 0: no limit. */
	RegisterAddressLimit: integer(5, 0, MAX_REGISTER_ADDRESS_LIMIT),
	RegisterAddressWindowHours: integer(24, 1, MAX_REGISTER_WINDOW_HOURS),
	/** New accounts need a valid invitation code (an existing user's aff code), by password or another service. */
	RegisterInvitationRequired: boolean(false),
	// GitHub, LinuxDO, Telegram, WeChat, Turnstile
	GitHubOAuthEnabled: boolean(false),
	GitHubClientId: text(),
	GitHubClientSecret: secret(),
	LinuxDOOAuthEnabled: boolean(false),
	LinuxDOClientId: text(),
	LinuxDOClientSecret: secret(),
	// OpenID Connect, under new-api's names. Saving `oidc.well_known` fills the three endpoints
	// from the provider's discovery document; they may also be set by hand.
	'oidc.enabled': boolean(false),
	'oidc.client_id': text(),
	'oidc.client_secret': secret(),
	'oidc.well_known': address(),
	'oidc.authorization_endpoint': address(),
	'oidc.token_endpoint': address(),
	'oidc.user_info_endpoint': address(),
	TelegramOAuthEnabled: boolean(false),
	TelegramBotToken: secret(),
	TelegramBotName: text(),
	WeChatAuthEnabled: boolean(false),
	WeChatServerAddress: address(),
	WeChatServerToken: secret(),
	WeChatAccountQRCodeImageURL: text(),
	TurnstileCheckEnabled: boolean(false),
	TurnstileSiteKey: text(),
	TurnstileSecretKey: secret(),
	// SMTP
	SMTPServer: text(),
	SMTPPort: integer(587, 1, MAX_PORT),
	SMTPAccount: text(),
	SMTPFrom: text(),
	SMTPToken: secret(),
	SMTPSSLEnabled: boolean(false),
	// Server and image proxy worker
	ServerAddress: address(),
	WorkerUrl: address(),
	WorkerValidKey: secret(),
	// Payment
	EpayId: text(),
	EpayKey: secret(),
	Price: decimal(7.3, 0, MAX_MONEY_RATE),
	MinTopUp: integer(1, 1, MAX_QUOTA),
	TopupGroupRatio: numberMap({ default: 1, vip: 1, svip: 1 }, MAX_RATIO),
	PayMethods: json(payMethods, [
		{ name: 'Alipay', type: 'alipay', color: '#1677ff' },
		{ name: 'WeChat Pay', type: 'wxpay', color: '#07c160' },
	]),
	PayAddress: address(),
	CustomCallbackAddress: address(),
	// Content
	Notice: text(),
	Footer: text(),
	SystemName: text(),
	Logo: text(),
	About: text(),
	HomePageContent: text(),
	// General operation
	TopUpLink: text(),
	ChatLink: text(),
	ChatLink2: text(),
	QuotaPerUnit: decimal(500000, 1, MAX_QUOTA_PER_UNIT),
	RetryTimes: integer(0, 0, MAX_RETRY_TIMES),
	// Routing (src/relay/router/): policies per group, and session affinity
	GroupRoutingPolicy: json(groupRoutingPolicySchema, {}),
	AffinityEnabled: boolean(true),
	AffinityDefaultSourcesEnabled: boolean(true),
	AffinityRules: json(affinityRulesSchema, []),
	AffinityTTLSeconds: integer(AFFINITY_TTL_SECONDS_DEFAULT, 1, AFFINITY_TTL_SECONDS_MAX),
	AffinityMaxEntries: integer(AFFINITY_MAX_ENTRIES_DEFAULT, 1, AFFINITY_MAX_ENTRIES_MAX),
	DisplayInCurrencyEnabled: boolean(true),
	DisplayTokenStatEnabled: boolean(true),
	DefaultCollapseSidebar: boolean(false),
	DemoSiteEnabled: boolean(false),
	SelfUseModeEnabled: boolean(false),
	USDExchangeRate: decimal(7.3, 0, MAX_MONEY_RATE),
	// Drawing and tasks
	DrawingEnabled: boolean(true),
	TaskEnabled: boolean(true),
	MjNotifyEnabled: boolean(false),
	MjAccountFilterEnabled: boolean(false),
	MjForwardUrlEnabled: boolean(true),
	MjModeClearEnabled: boolean(false),
	MjActionCheckSuccessEnabled: boolean(true),
	/** A task still unfinished this many minutes after its submit fails and its hold is returned (API only). */
	TaskTimeoutMinutes: integer(1440, 1, MAX_TASK_TIMEOUT_MINUTES),
	/** Seconds between two rounds of task polling, on one node; 0 stops polling (API only). */
	TaskPollingIntervalSeconds: integer(15, 0, MAX_INTERVAL_SECONDS),
	// Sensitive words
	CheckSensitiveEnabled: boolean(false),
	CheckSensitiveOnPromptEnabled: boolean(false),
	/** Answers too (new-api's older CheckSensitiveOnCompletionEnabled); StopOnSensitiveEnabled: stop there, else mask the word. */
	CheckSensitiveOnCompletionEnabled: boolean(false),
	StopOnSensitiveEnabled: boolean(true),
	SensitiveWords: text(''),
	// Logs and dashboard
	LogConsumeEnabled: boolean(true),
	/** Consume logs older than this many days are deleted in the background; 0 keeps them for ever. */
	ConsumeLogRetentionDays: integer(0, 0, MAX_RETENTION_DAYS),
	DataExportEnabled: boolean(true),
	DataExportInterval: integer(5, 1, MAX_INTERVAL_MINUTES),
	DataExportDefaultTime: choice(DATA_EXPORT_GRANULARITIES, 'hour'),
	// Monitoring
	ChannelDisableThreshold: decimal(5, 0, MAX_INTERVAL_SECONDS),
	QuotaRemindThreshold: quota(1000),
	AutomaticDisableChannelEnabled: boolean(false),
	AutomaticEnableChannelEnabled: boolean(false),
	AutomaticDisableKeywords: text(DEFAULT_AUTOMATIC_DISABLE_KEYWORDS),
	ChannelTestIntervalMinutes: integer(0, 0, MAX_INTERVAL_MINUTES),
	/** What every channel test sends: the chat message, or the embeddings input. */
	ChannelTestPrompt: filledText('hi', MAX_CHANNEL_TEST_PROMPT_LENGTH),
	/** Health checks failed (or too slow) in a row that disable a channel; 1: the first one does. */
	ChannelTestFailuresToDisable: integer(1, 1, MAX_TEST_FAILURES_TO_DISABLE),
	/** Auto-disabled keys are probed (their model list) and come back when they answer; 0: never. */
	KeyRecoveryIntervalMinutes: integer(10, 0, MAX_INTERVAL_MINUTES),
	// Outbound requests (docs/operations/security.md#outbound-requests): channel base URLs on private networks need the super admin's consent
	PrivateUpstreamsEnabled: boolean(false),
	PrivateUpstreamHosts: text(''),
	// Quota
	QuotaForNewUser: quota(0),
	PreConsumedQuota: integer(500, 0, MAX_PRE_CONSUMED_TOKENS),
	QuotaForInviter: quota(0),
	QuotaForInvitee: quota(0),
	/** `QuotaForInviter` is owed at sign-up and paid to the inviter when the invitee's first online payment is credited; off: paid at sign-up. */
	InviterRewardOnFirstTopUp: boolean(false),
	/** Charge an answer with no output (src/relay/stages/empty-output.ts) for its prompt; off: its hold is returned and its log line says why. */
	ChargeEmptyOutputs: boolean(false),
	// Chat
	Chats: json(chats, [
		{ 'Cherry Studio': 'cherrystudio://providers/api-keys?v=1&data={cherryConfig}' },
		{ 'AMA': 'ama://set-api-key?server={address}&key={key}' },
		{ 'OpenCat': 'opencat://team/join?domain={address}&token={key}' },
	]),
	// Groups
	GroupRatio: numberMap({ default: 1, vip: 1, svip: 1 }, MAX_RATIO),
	UserUsableGroups: json(stringMap, { default: 'default group', vip: 'vip group' }),
	GroupGroupRatio: numberMap({}, MAX_RATIO, true),
	AutoGroups: json(z.array(z.string()), ['default']),
	DefaultUseAutoGroup: boolean(false),
	// Pricing
	ModelPrice: numberMap(DEFAULT_MODEL_PRICE, MAX_MODEL_PRICE),
	ModelRatio: numberMap(DEFAULT_MODEL_RATIO, MAX_RATIO),
	CompletionRatio: numberMap(DEFAULT_COMPLETION_RATIO, MAX_RATIO),
	CacheRatio: numberMap({}, MAX_RATIO),
	CreateCacheRatio: numberMap({}, MAX_RATIO),
	AudioRatio: numberMap({}, MAX_RATIO),
	AudioCompletionRatio: numberMap({}, MAX_RATIO),
	/** Per model: ratios above a prompt threshold, 1-hour cache writes, a minimum charge (shared/price-tiers.ts). */
	ModelPriceTiers: priceTiers(),
	// Streaming
	StreamCacheQueueLength: integer(0, 0, MAX_STREAM_QUEUE_LENGTH),
	// The response cache (relay/stages/response-cache.ts): off while ResponseCacheSeconds is 0
	ResponseCacheSeconds: integer(0, 0, MAX_INTERVAL_SECONDS),
	ResponseCacheMaxBytes: integer(64 * 1024 * 1024, 0, MAX_RESPONSE_CACHE_BYTES),
	/** A cached answer costs this share of what the call it replays was charged (0: nothing). */
	ResponseCacheRatio: decimal(0, 0, 1),
	// Long sessions (relay/sessions/): Realtime and Responses over WebSocket
	SessionIdleSeconds: integer(300, 1, MAX_INTERVAL_SECONDS),
	SessionMaxMinutes: integer(60, 1, MAX_INTERVAL_MINUTES),
	// Request rate limits per user (relay/edge/request-limits.ts); counts of 0 set no limit
	ModelRequestRateLimitEnabled: boolean(false),
	ModelRequestRateLimitDurationMinutes: numeric(1, { min: 1, max: MAX_RATE_LIMIT_MINUTES, integer: true }),
	ModelRequestRateLimitCount: numeric(0, { min: 0, max: MAX_RATE_LIMIT_COUNT, integer: true }),
	ModelRequestRateLimitSuccessCount: numeric(1000, { min: 0, max: MAX_RATE_LIMIT_COUNT, integer: true }),
	ModelRequestRateLimitGroup: rateLimitGroups(),
	// Call limits per group and per model (relay/edge/request-limits.ts): {name: {rpm, tpm, rpd, concurrency}}, 0 or absent sets none
	GroupRateLimits: callLimits(),
	ModelRateLimits: callLimits(),
	// Plans: the plan every new account gets (its id; 0: none)
	DefaultPlanId: integer(0, 0, MAX_ROW_ID),
} satisfies Record<string, OptionDefinition<never> | OptionDefinition<any>>

export type OptionKey = keyof typeof OPTION_DEFINITIONS
export type OptionValue<Key extends OptionKey> = (typeof OPTION_DEFINITIONS)[Key]['defaultValue']
export type OptionValues = { [Key in OptionKey]: OptionValue<Key> }

export function isOptionKey(key: string): key is OptionKey {
	return Object.hasOwn(OPTION_DEFINITIONS, key)
}

export const SECRET_OPTION_KEYS = (Object.keys(OPTION_DEFINITIONS) as OptionKey[]).filter((key) => OPTION_DEFINITIONS[key].secret)

/** Saving any of these needs `ServerAddress` first (docs/specification/accounts-and-settings.md#options). */
export const PAYMENT_OPTION_KEYS: readonly OptionKey[] = ['PayAddress', 'EpayId', 'EpayKey', 'Price', 'MinTopUp', 'TopupGroupRatio', 'PayMethods', 'CustomCallbackAddress']

export { OPTION_MESSAGES }

export const updateOptionSchema = z.object({
	key: z.string().min(1),
	value: z.union([z.string(), z.number(), z.boolean()]).transform((value) => String(value)),
})
