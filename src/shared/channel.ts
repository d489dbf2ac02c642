/**
 * Channels (docs/specification/channels.md): the shapes of the `/api/channel` calls, their messages and limits.
 *
 * On the wire `models` and `group` are comma-joined strings (a list is accepted too); the server
 * trims items and drops empties and duplicates. JSON-valued fields (`model_mapping`,
 * `status_code_mapping`, `setting`, `other_info`) travel as JSON text, empty meaning none.
 *
 * Answers (`data`): list and search a `Page<ChannelListItem>`; read a `ChannelDetail`; update a `ChannelView`;
 * create a `ChannelView[]`; delete by id nothing; `DELETE /disabled`, `POST /batch`,
 * `POST /batch/tag`, `PUT /tag`, `POST /tag/enabled|disabled` the number of channels affected;
 * `POST /fix` the number of channels whose abilities were rebuilt; `GET /models` a
 * `ChannelModelEntry[]`; a multi-key channel's keys: `POST /{id}/keys` a `ChannelKeysAdded`,
 * `PUT /{id}/keys/{index}` the key's `ChannelKeyView`, `DELETE /{id}/keys/{index}` nothing.
 */
import { z } from 'zod'
import { pageQuerySchema, rowIdSchema } from './api'
import {
	BASE_URL_REACH, CHANNEL_GROUP_NAME_MAX_LENGTH, CHANNEL_LIST_MAX_ITEMS, CHANNEL_LIST_MAX_TEXT, CHANNEL_MODE, CHANNEL_MODEL_NAME_MAX_LENGTH, CHANNEL_NAME_MAX_LENGTH,
	CHANNEL_TAG_MAX_LENGTH, CREATE_MODE, isChannelBaseUrl, MULTI_KEY_MODE,
	PRIORITY_MIN, splitList, TAG_STATUS, TEST_ALL_KEYS, WEIGHT_MIN,
} from './channel-constants'
import { CHANNEL_STATUS } from './channel-type'
import { describeCycle, mappingCycle } from './model-mapping'
import { CHANNEL_MESSAGES, CHANNEL_TOOL_MESSAGES } from './messages/channels'
import { MAX_COST_RATIO, modelCostSchema } from './channel-cost'
import { channelSettingProblems } from './channel-setting'

export * from './channel-constants'

export { CHANNEL_MESSAGES }

/** Numbers may come as numeric text from form fields (the parameter's type is the schemas' input type). */
const numericText = (value: number | string) => typeof value === 'string' && value.trim() !== '' ? Number(value) : value
/** `schema`, optional, where an empty value also means "leave unchanged"; its input type is the schema's own, or empty. */
const blankAsAbsent = <Schema extends z.ZodType>(schema: Schema) =>
	z.preprocess((value: z.input<Schema> | '' | null | undefined) => value === '' || value === null ? undefined : value, schema.optional())

const integer = (message: string) => z.number({ error: message }).int(message)
const priority = z.preprocess(numericText, integer(CHANNEL_MESSAGES.priorityInteger).min(PRIORITY_MIN, CHANNEL_MESSAGES.priorityMinimum))
const weight = z.preprocess(numericText, integer(CHANNEL_MESSAGES.weightInteger).min(WEIGHT_MIN, CHANNEL_MESSAGES.weightInteger))
/** Updates floor a negative weight at 0, as the list's inline editor does. */
const flooredWeight = z.preprocess(numericText, integer(CHANNEL_MESSAGES.weightInteger).transform((value) => Math.max(WEIGHT_MIN, value)))
/** Which types exist is for the provider adaptors to say (`GET /api/channel/types`): the server refuses an unknown one with the same message. */
const channelType = z.preprocess(numericText, z.number({ error: CHANNEL_MESSAGES.typeUnknown }).int(CHANNEL_MESSAGES.typeUnknown).positive(CHANNEL_MESSAGES.typeUnknown))
const status = z.preprocess(numericText, z.literal(Object.values(CHANNEL_STATUS), { error: CHANNEL_MESSAGES.statusInvalid }))
const autoBan = z.union([z.boolean(), z.preprocess(numericText, z.union([z.literal(0), z.literal(1)]))]).transform((value) => Number(value) as 0 | 1)
const text = (max: number) => z.string().trim().max(max)

/**
 * A list's length is checked before its items: a million bad items would otherwise cost a million
 * issues to collect and report, holding the server for seconds.
 */
function lengthFirst<Schema extends z.ZodType>(schema: Schema, message: string) {
	return z.unknown()
		.refine((value) => !(Array.isArray(value) && value.length > CHANNEL_LIST_MAX_ITEMS) && !(typeof value === 'string' && value.length > CHANNEL_LIST_MAX_TEXT), { message, abort: true })
		.pipe(schema)
}
/** A list of model names or group names, each at most `itemMax` characters. */
const list = (itemMax: number, itemTooLong: string, message?: string) => lengthFirst(
	z.union([z.string(), z.array(z.string())], message ? { error: message } : undefined).transform(splitList)
		.refine((items) => items.every((item) => item.length <= itemMax), itemTooLong),
	CHANNEL_MESSAGES.listTooLong,
)
const modelList = (message?: string) => list(CHANNEL_MODEL_NAME_MAX_LENGTH, CHANNEL_MESSAGES.modelNameTooLong, message)
const groupList = () => list(CHANNEL_GROUP_NAME_MAX_LENGTH, CHANNEL_MESSAGES.groupNameTooLong)
const nonEmpty = (items: string[]) => items.length > 0

function parsesAsObject(text: string, valuesAreValid: (value: unknown, key: string) => boolean): boolean {
	if (!text) return true
	try {
		const parsed: unknown = JSON.parse(text)
		if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false
		return Object.entries(parsed).every(([key, value]) => valuesAreValid(value, key))
	} catch {
		return false
	}
}

const STATUS_CODE = /^[1-5]\d\d$/
/** A JSON object from model name to model name, without a cycle (a self-mapping is allowed: it is no mapping). */
const modelMapping = text(65_536)
	.refine((value) => parsesAsObject(value, (target) => typeof target === 'string'), CHANNEL_MESSAGES.modelMappingInvalid)
	.superRefine((value, context) => {
		const cycle = mappingCycle(value)
		if (cycle) context.addIssue({ code: 'custom', message: CHANNEL_MESSAGES.modelMappingCycle, params: { cycle: describeCycle(cycle) } })
	})
/** A JSON object from an upstream status code to the code the client sees, e.g. `{"429": "503"}`. */
const statusCodeMapping = text(4096).refine(
	(value) => parsesAsObject(value, (target, code) => STATUS_CODE.test(code) && STATUS_CODE.test(String(target))),
	CHANNEL_MESSAGES.statusCodeMappingInvalid,
)
/** A JSON object; its known keys (channel-setting.ts) must have their types, unknown ones are kept. */
const setting = text(65_536)
	.refine((value) => parsesAsObject(value, () => true), { message: CHANNEL_MESSAGES.settingInvalid, abort: true })
	.superRefine((value, context) => {
		if (!value) return
		for (const problem of channelSettingProblems(JSON.parse(value) as Record<string, unknown>)) context.addIssue({ code: 'custom', ...problem })
	})
/** What the operator pays, as a multiple of the list price before group ratios; an empty value means unknown. */
const costRatio = z.union([
	z.literal(''),
	z.preprocess(numericText, z.number({ error: CHANNEL_MESSAGES.costRatioInvalid }).min(0, CHANNEL_MESSAGES.costRatioInvalid).max(MAX_COST_RATIO, CHANNEL_MESSAGES.costRatioInvalid)),
], { error: CHANNEL_MESSAGES.costRatioInvalid })
/** Per-model cost prices in USD (shared/channel-cost.ts), JSON text; empty for none. */
const modelCost = text(65_536).refine((value) => parsesAsObject(value, (price) => modelCostSchema.safeParse(price).success), CHANNEL_MESSAGES.modelCostInvalid)
/** Empty: the type's default; else a URL that parses, http(s) (or ws(s)), see isChannelBaseUrl. */
const baseUrl = text(2048).transform((value) => value.replace(/\/+$/, '')).refine(isChannelBaseUrl, CHANNEL_MESSAGES.baseUrlInvalid)
const multiKeyMode = z.enum(Object.values(MULTI_KEY_MODE), { error: CHANNEL_MESSAGES.multiKeyModeInvalid })
const name = z.string({ error: CHANNEL_MESSAGES.nameAndKeyRequired }).trim().min(1, CHANNEL_MESSAGES.nameAndKeyRequired).max(CHANNEL_NAME_MAX_LENGTH)
const id = z.preprocess(numericText, rowIdSchema)

/** Fields an admin may set on a channel; absent (or null) means default on create, unchanged on update. */
const editableFields = {
	type: channelType,
	name,
	base_url: baseUrl,
	other: text(4096),
	models: modelList(CHANNEL_MESSAGES.modelsRequired).refine(nonEmpty, CHANNEL_MESSAGES.modelsRequired),
	/** An empty list means the `default` group. */
	group: groupList(),
	model_mapping: modelMapping,
	status_code_mapping: statusCodeMapping,
	setting,
	tag: text(CHANNEL_TAG_MAX_LENGTH),
	priority,
	openai_organization: text(256),
	/** The longest prompt (tokens) the relay gives the channel; 0: no limit. */
	max_input_tokens: z.preprocess(numericText, integer(CHANNEL_MESSAGES.maxInputTokensInvalid).min(0, CHANNEL_MESSAGES.maxInputTokensInvalid)),
	test_model: text(256),
	auto_ban: autoBan,
	/** Whether the scheduled health check tests the channel (default true); an admin's tests always may. */
	scheduled_test_enabled: z.boolean({ error: CHANNEL_MESSAGES.scheduledTestInvalid }),
	status,
	cost_ratio: costRatio,
	model_cost: modelCost,
}

const optionalFields = Object.fromEntries(Object.entries(editableFields).map(([field, schema]) => [field, schema.nullish()])) as {
	[Field in keyof typeof editableFields]: z.ZodOptional<z.ZodNullable<(typeof editableFields)[Field]>>
}

/**
 * `POST /api/channel/`. In `single` mode `key` is stored whole; in `batch` mode it holds one key
 * per line and one channel is created per distinct key, named `name`, `name-2`, `name-3`… in the
 * order of the lines. In `multi_key` mode one channel holds every distinct key, given one per line
 * or as a JSON array (Vertex AI service accounts: an array of JSON objects), at most
 * CHANNEL_KEYS_MAX of at most CHANNEL_KEY_MAX_BYTES each, and `multi_key_mode` says how a call
 * picks one (default `random`). Answers the created channels (without keys); when repeated keys
 * were left out, the message says how many.
 *
 * `copy_from` (the list's copy action): keys are never read back, so a copy sends no key and names
 * the channel whose key it reuses — all of its keys, for a multi-key channel, which the copy then
 * is too; a key that is given wins.
 */
export const createChannelSchema = z.object({
	...optionalFields,
	type: channelType,
	name,
	key: z.string({ error: CHANNEL_MESSAGES.nameAndKeyRequired }).trim().nullish().transform((key) => key ?? ''),
	models: editableFields.models,
	weight: weight.nullish(),
	mode: z.enum(Object.values(CREATE_MODE)).nullish().transform((mode) => mode ?? CREATE_MODE.single),
	multi_key_mode: multiKeyMode.nullish(),
	copy_from: id.nullish(),
}).refine((input) => input.key !== '' || Boolean(input.copy_from), { message: CHANNEL_MESSAGES.nameAndKeyRequired, path: ['key'] })

/**
 * `PUT /api/channel/`: the channel fields with `id`; absent fields stay as they are, so `{id, status}`,
 * `{id, priority}` and `{id, weight}` are updates too. An empty `key` keeps the stored key; a
 * multi-key channel takes no `key` here (its keys have calls of their own) but may change its
 * `multi_key_mode`. Its mode stays what it was created with.
 */
export const updateChannelSchema = z.object({
	id,
	...optionalFields,
	key: z.string().trim().nullish(),
	weight: flooredWeight.nullish(),
	multi_key_mode: multiKeyMode.nullish(),
})

/** `POST /api/channel/{id}/keys`: more keys for a multi-key channel, read as on creation. Answers a `ChannelKeysAdded`. */
export const addChannelKeysSchema = z.object({
	key: z.string({ error: CHANNEL_MESSAGES.nameAndKeyRequired }).trim().min(1, CHANNEL_MESSAGES.nameAndKeyRequired),
})

/** The indexes the new keys got, in the order given, and how many repeats (within the list or of stored keys) were left out. */
export const channelKeysAddedSchema = z.object({ indexes: z.array(z.number()), duplicates: z.number() })
export type ChannelKeysAdded = z.infer<typeof channelKeysAddedSchema>

const keyIndex = z.preprocess(numericText, z.number({ error: CHANNEL_MESSAGES.keyIndexInvalid }).int(CHANNEL_MESSAGES.keyIndexInvalid).min(0, CHANNEL_MESSAGES.keyIndexInvalid))

/** `/api/channel/{id}/keys/{index}`. */
export const channelKeyParamsSchema = z.object({ id, index: keyIndex })

/** `PUT /api/channel/{id}/keys/{index}`: enable (1) or disable by hand (2) one key. Answers the key's `ChannelKeyView`. */
export const channelKeyStatusSchema = z.object({
	status: z.preprocess(numericText, z.union([z.literal(CHANNEL_STATUS.enabled), z.literal(CHANNEL_STATUS.manuallyDisabled)], { error: CHANNEL_MESSAGES.keyStatusInvalid })),
})

/**
 * `GET /api/channel/test/{id}`: `model` to test instead of the channel's test model; `key` the
 * index of one key to test (a `ChannelTestResult`), or `keys=all` every key (a `ChannelKeyTestReport`).
 * Without either, a multi-key channel is tested with a usable key.
 */
export const channelTestQuerySchema = z.object({
	model: z.string().trim().max(256).optional(),
	key: keyIndex.optional(),
	keys: z.literal(TEST_ALL_KEYS, { error: CHANNEL_TOOL_MESSAGES.testKeysInvalid }).optional(),
})

const flag = z.union([z.boolean(), z.string()]).optional().transform((value) => value === true || value === 'true' || value === '1')

/** `id_sort` orders by id alone (newest first) instead of priority then id; `tag_mode` folds tags into one row. */
export const channelListQuerySchema = pageQuerySchema.extend({ id_sort: flag, tag_mode: flag })

/**
 * `keyword` matches the id exactly or the name or base URL in part; `model` matches part of a
 * model name; `group` is one group the channel serves.
 */
export const channelSearchQuerySchema = channelListQuerySchema.extend({
	keyword: z.string().trim().optional().default(''),
	group: z.string().trim().optional().default(''),
	model: z.string().trim().optional().default(''),
})

const idList = (message: string) => lengthFirst(z.array(id, { error: message }).min(1, message), CHANNEL_MESSAGES.listTooLong)
const tag = z.string({ error: CHANNEL_MESSAGES.tagRequired }).trim().min(1, CHANNEL_MESSAGES.tagRequired).max(CHANNEL_TAG_MAX_LENGTH)

export const deleteChannelsSchema = z.object({ ids: idList(CHANNEL_MESSAGES.selectChannelsToDelete) })
export const tagChannelsSchema = z.object({ ids: idList(CHANNEL_MESSAGES.selectChannels), tag })
export const tagSchema = z.object({ tag })

/**
 * `PUT /api/channel/tag`: every edit overwrites that field on all channels with `tag`; an empty or
 * absent field is left unchanged, except `new_tag` where an empty string dissolves the tag
 * (absent or null keeps it). Answers how many channels changed.
 */
export const editTagSchema = z.object({
	tag,
	new_tag: z.string().trim().max(CHANNEL_TAG_MAX_LENGTH).nullish(),
	model_mapping: blankAsAbsent(modelMapping),
	groups: blankAsAbsent(groupList()),
	models: blankAsAbsent(modelList()),
	priority: blankAsAbsent(priority),
	weight: blankAsAbsent(weight),
})

/** `other_info`: why and when (unix seconds) a channel was last disabled; cleared on enabling. */
export const channelOtherInfoSchema = z.looseObject({ status_reason: z.string().optional(), status_time: z.number().optional() })
export type ChannelOtherInfo = z.infer<typeof channelOtherInfoSchema>

/**
 * One key of a multi-key channel as the API shows it: never the key, only its `#index`, a masked
 * tail and its health. `status_reason` is worded in the reader's language (empty when enabled),
 * `last_error` too when it is Ferry's own message (an upstream's stays in its words).
 */
export const channelKeyViewSchema = z.object({
	index: z.number(),
	hint: z.string(),
	status: z.number(),
	status_reason: z.string(),
	/** Unix seconds of the last status change to disabled; 0 when enabled. */
	status_time: z.number(),
	last_error: z.string(),
	/** Milliseconds of the latest call or test, 0 when none yet. */
	response_time: z.number(),
	test_time: z.number(),
})
export type ChannelKeyView = z.infer<typeof channelKeyViewSchema>

/** How many keys a multi-key channel has, by status. */
export const channelKeyCountsSchema = z.object({ total: z.number(), enabled: z.number(), manually_disabled: z.number(), auto_disabled: z.number() })
export type ChannelKeyCounts = z.infer<typeof channelKeyCountsSchema>

/**
 * A channel as the API shows it: `key` is always empty, keys are never read back. `key_counts` is
 * set for a multi-key channel (null for a single-key one).
 */
export const channelViewSchema = z.object({
	id: z.number(),
	type: z.number(),
	name: z.string(),
	key: z.literal(''),
	base_url: z.string(),
	other: z.string(),
	models: z.string(),
	group: z.string(),
	model_mapping: z.string(),
	status_code_mapping: z.string(),
	tag: z.string(),
	priority: z.number(),
	weight: z.number(),
	setting: z.string(),
	openai_organization: z.string(),
	max_input_tokens: z.number(),
	test_model: z.string(),
	auto_ban: z.number(),
	scheduled_test_enabled: z.boolean(),
	/** Health checks failed in a row since the last pass or the last disable (`ChannelTestFailuresToDisable`). */
	health_failures: z.number(),
	status: z.number(),
	response_time: z.number(),
	used_quota: z.number(),
	balance: z.number(),
	balance_updated_time: z.number(),
	test_time: z.number(),
	expired_time: z.number(),
	created_time: z.number(),
	/** JSON text of `channelOtherInfoSchema`, or empty. */
	other_info: z.string(),
	/** Null: the cost is unknown. */
	cost_ratio: z.number().nullable(),
	model_cost: z.string(),
	mode: z.enum(Object.values(CHANNEL_MODE)),
	multi_key_mode: z.enum(Object.values(MULTI_KEY_MODE)),
	key_counts: channelKeyCountsSchema.nullable(),
})
export type ChannelView = z.infer<typeof channelViewSchema>

/** `GET /api/channel/{id}`: the channel and, for a multi-key channel, each of its keys in index order (empty for a single-key one). */
export const channelDetailSchema = channelViewSchema.extend({ keys: z.array(channelKeyViewSchema) })
export type ChannelDetail = z.infer<typeof channelDetailSchema>

/**
 * In tag mode every tag is one row standing for its channels (those matching the list or search),
 * placed where its first channel would be in the chosen order. `priority` and `weight` are the
 * value all its channels share, null when they differ; `models` and `group` are the union;
 * `used_quota` and `balance` are sums; `response_time` is the mean over tested channels.
 */
export const channelTagRowSchema = z.object({
	kind: z.literal('tag'),
	tag: z.string(),
	status: z.literal(Object.values(TAG_STATUS)),
	channel_count: z.number(),
	enabled_count: z.number(),
	manually_disabled_count: z.number(),
	auto_disabled_count: z.number(),
	priority: z.number().nullable(),
	weight: z.number().nullable(),
	models: z.string(),
	group: z.string(),
	used_quota: z.number(),
	balance: z.number(),
	response_time: z.number(),
	channels: z.array(channelViewSchema),
})
export type ChannelTagRow = z.infer<typeof channelTagRowSchema>

/** Items of `GET /api/channel/` and `/search`: channels, and in tag mode tag rows (`kind: 'tag'`) for tagged ones. */
export const channelListItemSchema = z.union([channelViewSchema, channelTagRowSchema])
export type ChannelListItem = z.infer<typeof channelListItemSchema>

/** `GET /api/channel/models`: every model name configured on any channel, sorted. */
export const channelModelEntrySchema = z.object({ id: z.string() })
export type ChannelModelEntry = z.infer<typeof channelModelEntrySchema>

/**
 * `POST /api/channel/check`: what would stop a channel from serving, asked by the editor before it
 * saves. `base_url` (empty: the type's default) is resolved and checked against the private-upstream
 * settings when given; `models` are checked for a price.
 */
export const channelCheckSchema = z.object({
	type: z.number().int(),
	base_url: z.string().max(2048).optional(),
	models: z.array(z.string().max(256)).max(CHANNEL_LIST_MAX_ITEMS).default([]),
})
export type ChannelCheckInput = z.infer<typeof channelCheckSchema>

export const channelCheckResultSchema = z.object({
	/** Absent when no base URL was asked about. */
	base_url: z.object({
		url: z.string(),
		/** The host as resolved (for the allow-list), '' when the URL has none. */
		host: z.string(),
		reach: z.enum(BASE_URL_REACH),
		private_upstreams_enabled: z.boolean(),
	}).optional(),
	/** Of the models asked about, those without a price: the relay refuses them (unless self-use mode). */
	unpriced_models: z.array(z.string()),
	self_use_mode: z.boolean(),
})
export type ChannelCheck = z.infer<typeof channelCheckResultSchema>

/** `GET /api/channel/unpriced_models`: models enabled channels offer that have no price (none in self-use mode). */
export const unpricedModelsSchema = z.object({ models: z.array(z.string()), self_use_mode: z.boolean() })
export type UnpricedModels = z.infer<typeof unpricedModelsSchema>

/**
 * What a channel type can do (the relay's `capabilities(type)`, which routing and the channel tools
 * ask too): the relay endpoints it serves (`chat`, `embeddings`, `image-generations`…) and whether
 * it can stream each, the client formats whose own requests it takes as they came (`claude`,
 * `gemini`, `responses`), its async task platform (`midjourney`, `suno`), whether its upstream lists
 * models and publishes a balance, and the endpoint a channel test calls (null: it cannot be tested).
 */
export const channelCapabilitiesSchema = z.object({
	endpoints: z.record(z.string(), z.object({ stream: z.boolean() })),
	native_formats: z.array(z.string()),
	task_platform: z.string().nullable(),
	model_list: z.boolean(),
	balance: z.boolean(),
	test_endpoint: z.string().nullable(),
})
export type ChannelCapabilities = z.infer<typeof channelCapabilitiesSchema>

/**
 * `GET /api/channel/types`: every channel type the server knows, in the order the console lists
 * them, with its display name, how its key is composed ('' for one API key) and what it can do. The
 * provider adaptors are their one source.
 */
export const channelTypeInfoSchema = z.object({ type: z.number(), name: z.string(), key_format: z.string(), capabilities: channelCapabilitiesSchema })
export type ChannelTypeInfo = z.infer<typeof channelTypeInfoSchema>

/**
 * Answers (`data`) of the channel tool calls the list makes: `GET /test/{id}?model=` a
 * `ChannelTestResult`; `GET /update_balance/{id}/` the new balance (a number); `GET /test_upstream/{id}`
 * an `UpstreamDetection`; `GET /update_balance` (all enabled) a `BalanceUpdateReport`. `GET /test`
 * (all) answers a message.
 */
export const channelTestResultSchema = z.object({
	/** How long the test request took, in milliseconds. */
	time: z.number(),
	/** The index of the key tested (0 for a single-key channel). */
	key: z.number(),
})
export type ChannelTestResult = z.infer<typeof channelTestResultSchema>

/** One key's test in a `ChannelKeyTestReport`; `message` is worded in the caller's language, empty on success. */
export const channelKeyTestOutcomeSchema = z.object({ index: z.number(), success: z.boolean(), message: z.string(), time: z.number() })

/**
 * `GET /api/channel/test/{id}?keys=all`: every key tested (disabled ones too), a few at a time;
 * the outcomes of those done when the answer went, in index order, and how many were still running
 * (they finish in the background and are recorded on their keys).
 */
export const channelKeyTestReportSchema = z.object({
	tested: z.number(),
	failed: z.number(),
	pending: z.number(),
	outcomes: z.array(channelKeyTestOutcomeSchema),
})
export type ChannelKeyTestReport = z.infer<typeof channelKeyTestReportSchema>

/** What updating every enabled channel's balance did: updated, failed with the reason, still running when the answer went. */
export const balanceUpdateReportSchema = z.object({
	updated: z.number(),
	failed: z.array(z.object({ id: z.number(), name: z.string(), reason: z.string() })),
	pending: z.number(),
})
export type BalanceUpdateReport = z.infer<typeof balanceUpdateReportSchema>

/**
 * `GET /api/channel/model_sync/{id}` (one channel) and `GET /api/channel/model_sync` (every enabled
 * channel whose type lists models): how each upstream's model list differs from the channel's
 * `models`. `added`: listed upstream, not served by the channel; `removed`: served by the channel,
 * no longer listed. A model the channel maps (`model_mapping`) counts under its upstream name too.
 * `error` is why the list could not be read, in the caller's language ('' when it was).
 */
export const modelSyncDiffSchema = z.object({
	id: z.number(),
	name: z.string(),
	added: z.array(z.string()),
	removed: z.array(z.string()),
	error: z.string(),
})
export type ModelSyncDiff = z.infer<typeof modelSyncDiffSchema>
export const modelSyncReportSchema = z.object({ channels: z.array(modelSyncDiffSchema) })
export type ModelSyncReport = z.infer<typeof modelSyncReportSchema>

/** `POST /api/channel/model_sync/{id}`: models to add to and remove from the channel's `models`. Answers the updated `ChannelView`. */
export const modelSyncApplySchema = z.object({
	add: modelList().default([]),
	remove: modelList().default([]),
}).refine((input) => input.add.length + input.remove.length > 0, CHANNEL_TOOL_MESSAGES.modelSyncNothingChosen)
export type ModelSyncApply = z.input<typeof modelSyncApplySchema>

/** One upstream group: which client kinds answered, how often each, and when (unix seconds). */
export const upstreamGroupSchema = z.object({
	client_types: z.array(z.string()),
	counts: z.record(z.string(), z.number()),
	first_seen: z.number(),
	last_seen: z.number(),
})
export const upstreamDetectionSchema = z.object({ groups: z.array(upstreamGroupSchema) })
export type UpstreamGroup = z.infer<typeof upstreamGroupSchema>
export type UpstreamDetection = z.infer<typeof upstreamDetectionSchema>
