/** The editor's form values, how a channel fills them, what they save as, and the checks before saving. */
import { CHANNEL_MODE, CREATE_MODE, DEFAULT_CHANNEL_GROUP, isChannelBaseUrl, keyDestinationChanged, MULTI_KEY_MODE, type MultiKeyMode, PRIORITY_MIN, splitList, WEIGHT_MIN } from '@shared/channel-constants'
import type { ChannelView } from '@shared/channel'
import { CHANNEL_TYPE, DEFAULT_CHANNEL_OTHER, type ChannelType } from '@shared/channel-type'
import { describeCycle, mappingCycle } from '@shared/model-mapping'
import type { ChannelPayload } from './api'
import { DEFAULT_NEW_CHANNEL_TYPE } from './presets'
import type { FormProblem } from '@ui/lib/use-form-problem'
import { MAX_COST_RATIO } from '@shared/channel-cost-constants'
import { channelSettingProblems } from '@shared/channel-setting'

export type CreateMode = (typeof CREATE_MODE)[keyof typeof CREATE_MODE]

export type ChannelForm = {
	type: number
	name: string
	baseUrl: string
	key: string
	/**
	 * How `key` is read: one key (`single`); create mode only, one channel per key line (`batch`);
	 * one channel holding every key (`multi_key`), whose keys, once saved, have a panel of their own.
	 */
	mode: CreateMode
	/** A multi-key channel's way of picking a key. */
	multiKeyMode: MultiKeyMode
	other: string
	groups: string[]
	models: string[]
	modelMapping: string
	tag: string
	priority: string
	weight: string
	setting: string
	/** The longest prompt (tokens) the channel is given; empty or 0 for no limit. */
	maxInputTokens: string
	testModel: string
	autoBan: boolean
	/** Whether the scheduled health check tests the channel. */
	scheduledTest: boolean
	statusCodeMapping: string
	organization: string
	/** A multiple of the list price before group ratios; empty: unknown. */
	costRatio: string
	/** Per-model cost prices in USD, JSON; empty for none. */
	modelCost: string
}

export const newChannelForm: ChannelForm = {
	type: DEFAULT_NEW_CHANNEL_TYPE,
	name: '',
	baseUrl: '',
	key: '',
	mode: CREATE_MODE.single,
	multiKeyMode: MULTI_KEY_MODE.random,
	other: '',
	groups: [DEFAULT_CHANNEL_GROUP],
	models: [],
	modelMapping: '',
	tag: '',
	priority: '0',
	weight: '0',
	setting: '',
	maxInputTokens: '',
	testModel: '',
	autoBan: true,
	scheduledTest: true,
	statusCodeMapping: '',
	organization: '',
	costRatio: '',
	modelCost: '',
}

/** The key is never answered: it stays empty, meaning unchanged. */
export function formFromChannel(channel: ChannelView): ChannelForm {
	return {
		type: channel.type,
		name: channel.name,
		baseUrl: channel.base_url,
		key: '',
		mode: channel.mode === CHANNEL_MODE.multiKey ? CREATE_MODE.multiKey : CREATE_MODE.single,
		multiKeyMode: channel.multi_key_mode,
		other: channel.other,
		groups: splitList(channel.group),
		models: splitList(channel.models),
		modelMapping: channel.model_mapping,
		tag: channel.tag,
		priority: String(channel.priority),
		weight: String(channel.weight),
		setting: channel.setting,
		maxInputTokens: channel.max_input_tokens > 0 ? String(channel.max_input_tokens) : '',
		testModel: channel.test_model,
		autoBan: channel.auto_ban === 1,
		scheduledTest: channel.scheduled_test_enabled,
		statusCodeMapping: channel.status_code_mapping,
		organization: channel.openai_organization,
		costRatio: channel.cost_ratio === null ? '' : String(channel.cost_ratio),
		modelCost: channel.model_cost,
	}
}

/** zh source strings of the editor's own checks; the server checks again in English. */
export const formMessages = {
	nameAndKeyRequired: '请填写渠道名称和渠道密钥',
	nameRequired: '请填写渠道名称',
	baseUrlInvalid: '代理地址必须是以 http:// 或 https:// 开头的完整网址，例如 https://api.example.com',
	modelsRequired: '请至少选择一个模型',
	groupsRequired: '请至少选择一个分组',
	modelMappingInvalid: '模型重定向必须是合法的 JSON 格式',
	modelMappingCycle: '模型重定向存在循环（{cycle}），模型不能经由其他名称映射回自身',
	keyNeededForNewDestination: '类型、代理地址或地区等设置决定密钥发往何处，修改它们需要重新填写密钥',
	multiKeyDestinationRootOnly: '类型、代理地址或地区等设置决定密钥发往何处：多密钥渠道的这些设置只有超级管理员可以修改',
	settingInvalid: '额外设置必须是合法的 JSON 对象',
	statusCodeMappingInvalid: '状态码复写必须是合法的 JSON 对象',
	priorityInteger: '优先级必须是不小于 {minimum} 的整数',
	weightInteger: '权重必须是非负整数',
	maxInputTokensInvalid: '最大输入 token 数必须是非负整数，0 或留空表示不限',
	vertexKeyInvalid: '密钥必须是服务账号的 JSON 密钥（批量创建时一行一个）',
	vertexRegionInvalid: '部署地区必须是地区名或合法的 JSON 对象',
	costRatioInvalid: '成本倍率须为 0 到 10000 之间的数字，留空表示未知',
	modelCostInvalid: '模型成本价必须是 JSON 对象：模型名 → 不小于 0 的 input、output、cache_read、cache_write 或 per_call（美元）',
} as const

const COST_PRICE_FIELDS = new Set(['input', 'output', 'cache_read', 'cache_write', 'per_call'])

/** `{model: {input?, output?, cache_read?, cache_write?, per_call?}}` with prices not below 0; blank passes. */
function isModelCostText(text: string): boolean {
	if (!isJsonObjectText(text)) return false
	if (!text.trim()) return true
	return Object.values(JSON.parse(text) as Record<string, unknown>).every((price) => typeof price === 'object' && price !== null && !Array.isArray(price)
		&& Object.entries(price).every(([field, value]) => COST_PRICE_FIELDS.has(field) && typeof value === 'number' && value >= 0))
}

/** Whether the text is a JSON object; blank text passes (the field is left unset). */
export function isJsonObjectText(text: string): boolean {
	if (!text.trim()) return true
	try {
		const parsed: unknown = JSON.parse(text)
		return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
	} catch {
		return false
	}
}

const isIntegerText = (text: string) => /^-?\d+$/.test(text.trim())

/** `fields` are the names of ChannelForm's fields at fault. */
export type { FormProblem }

/**
 * Edit mode: whether the form sends the stored key somewhere new (type, base URL or `other`
 * changed), which only the super admin may do without entering the key (KeyDestination in
 * @shared/channel; the server checks again).
 */
export function keyNeeded(form: ChannelForm, channel: ChannelView | null, mayRedirectStoredKey: boolean): boolean {
	if (!channel || mayRedirectStoredKey) return false
	return keyDestinationChanged(
		{ type: channel.type, base_url: channel.base_url, other: channel.other },
		{ type: form.type, base_url: form.baseUrl, other: form.other },
	)
}

/** The first problem that keeps the form from saving, or undefined. `needsKey`: see keyNeeded. */
export function findProblem(form: ChannelForm, creating: boolean, needsKey = false): FormProblem | undefined {
	if (creating && (!form.name.trim() || !form.key.trim())) return { message: formMessages.nameAndKeyRequired, fields: [!form.name.trim() && 'name', !form.key.trim() && 'key'].filter((field): field is string => Boolean(field)) }
	if (!form.name.trim()) return { message: formMessages.nameRequired, fields: ['name'] }
	if (!isChannelBaseUrl(baseUrlOnSave(form.baseUrl))) return { message: formMessages.baseUrlInvalid, fields: ['baseUrl'] }
	// A multi-key channel's keys are not entered again here: its destination is the super admin's to change.
	if (needsKey && form.mode === CREATE_MODE.multiKey && !creating) return { message: formMessages.multiKeyDestinationRootOnly, fields: ['baseUrl', 'other'] }
	if (needsKey && !form.key.trim()) return { message: formMessages.keyNeededForNewDestination, fields: ['key'] }
	if (form.groups.length === 0) return { message: formMessages.groupsRequired, fields: ['groups'] }
	if (form.models.length === 0) return { message: formMessages.modelsRequired, fields: ['models'] }
	if (!isJsonObjectText(form.modelMapping)) return { message: formMessages.modelMappingInvalid, fields: ['modelMapping'] }
	const cycle = mappingCycle(form.modelMapping)
	if (cycle) return { message: formMessages.modelMappingCycle, values: { cycle: describeCycle(cycle) }, fields: ['modelMapping'] }
	if (!isJsonObjectText(form.setting)) return { message: formMessages.settingInvalid, fields: ['setting'] }
	const settingProblem = form.setting.trim() ? channelSettingProblems(JSON.parse(form.setting) as Record<string, unknown>)[0] : undefined
	if (settingProblem) return { message: settingProblem.message, values: settingProblem.params, fields: ['setting'] }
	if (!isJsonObjectText(form.statusCodeMapping)) return { message: formMessages.statusCodeMappingInvalid, fields: ['statusCodeMapping'] }
	if (form.type === CHANNEL_TYPE.vertex) {
		const problem = findVertexProblem(form)
		if (problem) return problem
	}
	const priority = form.priority.trim()
	if (priority && (!isIntegerText(priority) || Number(priority) < PRIORITY_MIN)) return { message: formMessages.priorityInteger, values: { minimum: PRIORITY_MIN }, fields: ['priority'] }
	const weight = form.weight.trim()
	if (weight && (!isIntegerText(weight) || Number(weight) < WEIGHT_MIN)) return { message: formMessages.weightInteger, fields: ['weight'] }
	const maxInputTokens = form.maxInputTokens.trim()
	if (maxInputTokens && (!isIntegerText(maxInputTokens) || Number(maxInputTokens) < 0)) return { message: formMessages.maxInputTokensInvalid, fields: ['maxInputTokens'] }
	const costRatio = form.costRatio.trim()
	if (costRatio && !(Number.isFinite(Number(costRatio)) && Number(costRatio) >= 0 && Number(costRatio) <= MAX_COST_RATIO)) return { message: formMessages.costRatioInvalid, fields: ['costRatio'] }
	if (!isModelCostText(form.modelCost)) return { message: formMessages.modelCostInvalid, fields: ['modelCost'] }
	return undefined
}

/**
 * Vertex AI: the key is a service-account JSON key; the region a name or a JSON map. A multi-key
 * list (lines or a JSON array) is left to the server, which names the line or element at fault.
 */
function findVertexProblem(form: ChannelForm): FormProblem | undefined {
	const keys = form.mode === CREATE_MODE.batch ? form.key.split('\n').filter((line) => line.trim()) : [form.key]
	if (form.key.trim() && form.mode !== CREATE_MODE.multiKey && !keys.every((key) => key.trim().startsWith('{') && isJsonObjectText(key))) return { message: formMessages.vertexKeyInvalid, fields: ['key'] }
	if (form.other.trim().startsWith('{') && !isJsonObjectText(form.other)) return { message: formMessages.vertexRegionInvalid, fields: ['other'] }
	return undefined
}

/** The base URL as it is sent: trimmed, without trailing slashes (the server does the same). */
export const baseUrlOnSave = (baseUrl: string) => baseUrl.trim().replace(/\/+$/, '')

const optionalInteger = (text: string) => text.trim() ? Number(text.trim()) : undefined

/** An empty `other` of Azure, iFlytek and Vertex saves as the type's default (docs/specification/channels.md#fields). */
function otherOnSave(type: number, other: string): string {
	return other.trim() || (DEFAULT_CHANNEL_OTHER[type as ChannelType] ?? '')
}

function payloadFromForm(form: ChannelForm): ChannelPayload {
	return {
		type: form.type,
		name: form.name.trim(),
		base_url: baseUrlOnSave(form.baseUrl),
		other: otherOnSave(form.type, form.other),
		models: form.models.join(','),
		group: form.groups.join(','),
		model_mapping: form.modelMapping.trim(),
		status_code_mapping: form.statusCodeMapping.trim(),
		setting: form.setting.trim(),
		max_input_tokens: optionalInteger(form.maxInputTokens) ?? 0,
		tag: form.tag.trim(),
		priority: optionalInteger(form.priority),
		weight: optionalInteger(form.weight),
		openai_organization: form.organization.trim(),
		test_model: form.testModel.trim(),
		auto_ban: form.autoBan ? 1 : 0,
		scheduled_test_enabled: form.scheduledTest,
		cost_ratio: form.costRatio.trim() === '' ? '' : Number(form.costRatio.trim()),
		model_cost: form.modelCost.trim(),
	}
}

/** Create: the key whole, in batch mode one per line, in multi-key mode a list with its way of picking. */
export function createPayload(form: ChannelForm): ChannelPayload {
	const multiKey = form.mode === CREATE_MODE.multiKey ? { multi_key_mode: form.multiKeyMode } : {}
	return { ...payloadFromForm(form), key: form.key.trim(), mode: form.mode, ...multiKey }
}

/**
 * Edit: an empty key keeps the stored one, so it is left out. A multi-key channel sends no key (its
 * keys have calls of their own) but its way of picking one.
 */
export function updatePayload(form: ChannelForm, id: number): Partial<ChannelPayload> & { id: number } {
	if (form.mode === CREATE_MODE.multiKey) return { id, ...payloadFromForm(form), multi_key_mode: form.multiKeyMode }
	const key = form.key.trim()
	return { id, ...payloadFromForm(form), ...(key ? { key } : {}) }
}

/** Names from `text` (comma separated) not in `current`, and whether some were already there. */
export function customModelNames(text: string, current: readonly string[]): { added: string[]; duplicates: boolean } {
	const names = splitList(text)
	const added = names.filter((name) => !current.includes(name))
	return { added, duplicates: added.length < names.length }
}

/** The fetched list may hold names or `{id}` entries. */
export function modelNames(fetched: unknown): string[] | undefined {
	if (!Array.isArray(fetched)) return undefined
	const names = fetched.map((entry) => typeof entry === 'string' ? entry : typeof entry?.id === 'string' ? entry.id : '')
	return splitList(names)
}
