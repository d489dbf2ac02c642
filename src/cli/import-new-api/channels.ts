/**
 * new-api's `channels` (model/channel.go): type, key, base URL, models, groups, priority, weight,
 * model mapping, status-code mapping, tag, settings, status and the rest come over; the key is
 * encrypted as Ferry encrypts channel keys. The abilities (the routing table) are rebuilt from the
 * channels afterwards, as Ferry derives them, rather than copied.
 *
 * A new-api multi-key channel (`channel_info.is_multi_key`: its key column a list, one per line or a
 * JSON array for Vertex AI) becomes a Ferry multi-key channel: each key keeps its index, its status
 * from `multi_key_status_list` and its disabled reason and time (`multi_key_disabled_reason`,
 * `multi_key_disabled_time`); `multi_key_mode` (random or polling) comes over.
 *
 * one-api keeps per-type settings in a JSON `config` (api_version, region, ak/sk, user_id,
 * library_id, vertex_ai_adc) where new-api has `other` and composite keys; they are moved to
 * where Ferry reads them.
 */
import { CHANNEL_STATUS, CHANNEL_TYPE } from '@shared/channel-type'
import { CHANNEL_KEY_MAX_BYTES, CHANNEL_KEYS_MAX, CHANNEL_MESSAGES, CHANNEL_MODE, KEY_LAST_ERROR_MAX_LENGTH, MULTI_KEY_MODE, splitList } from '@shared/channel'
import { CHANNEL_GROUP_NAME_MAX_LENGTH, CHANNEL_MODEL_NAME_MAX_LENGTH, isChannelBaseUrl } from '@shared/channel-constants'
import { CHANNEL_SETTING_KEYS, channelSettingProblems } from '@shared/channel-setting'
import { keyHint } from '@shared/channel-keys'
import { describeCycle, mappingCycle } from '@shared/model-mapping'
import type { Tables } from '@/db'
import type { SecretBox } from '@/lib/crypto'
import { uncodedKeyReason } from '@/db/stores/channel-keys'
import { decideType, type SourceFlavor } from './channel-types'
import type { ReportSection } from './report'
import type { SourceRow } from './source'
import { decimal, flag, integer, jsonObjectText, outOfRange, text, unixSeconds } from './values'

export type ChannelKeyRow = Tables['channelKeys']['$inferInsert']
/** A channel to write, and for a multi-key channel its keys. */
export type ChannelRow = Tables['channels']['$inferInsert'] & { id: number; name: string; keys?: ChannelKeyRow[] }

const KNOWN_STATUSES = new Set<number>(Object.values(CHANNEL_STATUS))

/** Columns Ferry has no place for; a channel that used one may behave differently, so each is reported. */
const NOT_CARRIED = [
	{ column: 'param_override', reason: 'parameter override not carried (Ferry has none): requests go upstream as clients send them' },
	{ column: 'header_override', reason: 'header override not carried (Ferry has none): check that the upstream does not need those headers' },
	{ column: 'settings', reason: 'other settings not carried (Azure responses version, key types, service tier, model-update flags)' },
	{ column: 'remark', reason: 'remark not carried' },
	{ column: 'system_prompt', reason: 'system prompt not carried (one-api; Ferry has none)' },
] as const

export interface ChannelImportContext {
	flavor: SourceFlavor
	secrets: SecretBox
	now: number
	report: ReportSection
}

/** The keys of a multi-key channel: a JSON array (Vertex service accounts) or one per line. */
function multipleKeys(key: string): string[] {
	const trimmed = key.trim()
	if (trimmed.startsWith('[')) {
		try {
			const parsed: unknown = JSON.parse(trimmed)
			if (Array.isArray(parsed)) return parsed.map((item) => typeof item === 'string' ? item : JSON.stringify(item)).filter(Boolean)
		} catch {}
	}
	return trimmed.split('\n').map((line) => line.trim()).filter(Boolean)
}

/** one-api's `config` as Ferry's `other` and key, for the types that read them. */
function fromOneApiConfig(row: SourceRow, type: number, key: string): { other: string; key: string } {
	const config = jsonObjectText(text(row, 'config')).parsed as Record<string, string | undefined>
	const legacyOther = text(row, 'other')
	switch (type) {
		case CHANNEL_TYPE.azure: case CHANNEL_TYPE.xunfei: case CHANNEL_TYPE.gemini:
			return { other: config.api_version || legacyOther, key }
		case CHANNEL_TYPE.cloudflare:
			return { other: config.user_id || legacyOther, key }
		case CHANNEL_TYPE.aiProxyLibrary:
			return { other: config.library_id || legacyOther, key }
		case CHANNEL_TYPE.aws:
			return { other: '', key: config.ak && config.sk ? [config.ak, config.sk, config.region ?? ''].join('|') : key }
		case CHANNEL_TYPE.vertex:
			return { other: config.region || legacyOther, key: config.vertex_ai_adc || key }
		default:
			return { other: legacyOther, key }
	}
}

function statusOf(row: SourceRow, id: number, report: ReportSection): number {
	const status = integer(row, 'status', CHANNEL_STATUS.enabled)
	if (KNOWN_STATUSES.has(status)) return status
	report.note(`status ${status} is not a Ferry channel status: imported as disabled`, id)
	return CHANNEL_STATUS.manuallyDisabled
}

/**
 * A channel's model or group names, without those longer than Ferry keeps (the console refuses them:
 * each name is part of an ability's key, and Postgres cannot index a key past a page's share).
 */
function namesWithin(list: string, maxLength: number, kind: 'model' | 'group', label: string | number, report: ReportSection): string[] {
	const names = splitList(list)
	const kept = names.filter((name) => name.length <= maxLength)
	if (kept.length < names.length) report.note(`${names.length - kept.length} ${kind} name(s) longer than ${maxLength} characters dropped`, label)
	return kept
}

/** `status_code_mapping` as Ferry accepts it: an object from status code to status code. */
function statusCodeMapping(row: SourceRow, id: number, report: ReportSection): string {
	const { text: mapping, invalid, parsed } = jsonObjectText(text(row, 'status_code_mapping'))
	const valid = Object.entries(parsed).every(([from, to]) => /^[1-5]\d\d$/.test(from) && /^[1-5]\d\d$/.test(String(to)))
	if (invalid || !valid) {
		report.note('status code mapping is not an object from status code to status code: dropped', id)
		return ''
	}
	return mapping
}

export function mapChannels(sourceRows: readonly SourceRow[], { flavor, secrets, now, report }: ChannelImportContext): ChannelRow[] {
	const channels: ChannelRow[] = []
	for (const row of sourceRows) {
		report.read += 1
		const id = integer(row, 'id')
		const name = text(row, 'name')
		const label = `${id} "${name}"`
		const decision = decideType(flavor, integer(row, 'type'))
		if (decision.kind === 'unsupported') {
			report.skip(`Ferry does not serve ${decision.name} channels`, label)
			continue
		}
		const type = decision.kind === 'kept' ? decision.type : CHANNEL_TYPE.openai
		let key = text(row, 'key')
		let other = text(row, 'other')
		if (flavor === 'one-api') ({ other, key } = fromOneApiConfig(row, type, key))
		if (id <= 0 || !key.trim()) {
			report.skip('no id or key', label)
			continue
		}
		let baseUrl = text(row, 'base_url').trim().replace(/\/+$/, '')
		if (decision.kind === 'openai') {
			if (!baseUrl && !decision.baseUrl) {
				report.skip(`${decision.name} channel without a base URL`, label)
				continue
			}
			baseUrl ||= decision.baseUrl
			if (flavor === 'new-api' || decision.name !== 'OpenAI') report.note(`${decision.name} channel imported as an OpenAI channel calling ${baseUrl}`, label)
		}
		// The console refuses such a base URL on save, and no call could reach it.
		if (!isChannelBaseUrl(baseUrl)) {
			report.skip('base URL is not a full http(s) or ws(s) address', label)
			continue
		}
		const modelMapping = jsonObjectText(text(row, 'model_mapping'))
		if (modelMapping.invalid) report.note('model mapping is not a JSON object: dropped', label)
		const cycle = mappingCycle(modelMapping.text)
		if (cycle) report.note(`model mapping loops (${describeCycle(cycle)}): the channel cannot serve those models until it is fixed`, label)
		const setting = jsonObjectText(text(row, 'setting'))
		if (setting.invalid) report.note('setting is not a JSON object: dropped', label)
		const problems = channelSettingProblems(setting.parsed)
		if (CHANNEL_SETTING_KEYS.proxy in setting.parsed) {
			// Ferry refuses a channel proxy (shared/channel-setting.ts): the channel calls its upstream directly.
			const proxy = setting.parsed[CHANNEL_SETTING_KEYS.proxy]
			delete setting.parsed[CHANNEL_SETTING_KEYS.proxy]
			setting.text = JSON.stringify(setting.parsed)
			if (proxy) report.note('setting.proxy dropped (Ferry has no channel proxy): the channel calls its upstream directly', label)
		}
		if (problems.some(({ message }) => message !== CHANNEL_MESSAGES.settingProxyUnsupported)) report.note('setting has keys of the wrong type: the relay ignores them until the channel is saved with them fixed', label)
		const otherInfo = jsonObjectText(text(row, 'other_info'))
		const models = namesWithin(text(row, 'models'), CHANNEL_MODEL_NAME_MAX_LENGTH, 'model', label, report)
		const groups = namesWithin(text(row, 'group'), CHANNEL_GROUP_NAME_MAX_LENGTH, 'group', label, report)
		const channel: ChannelRow = {
			id,
			type,
			key: '',
			// GORM names the column after the field OpenAIOrganization: `open_ai_organization`.
			openaiOrganization: text(row, 'open_ai_organization') || text(row, 'openai_organization'),
			testModel: text(row, 'test_model'),
			status: statusOf(row, id, report),
			name,
			weight: Math.max(0, integer(row, 'weight')),
			createdTime: unixSeconds(row, 'created_time', now) || now,
			testTime: unixSeconds(row, 'test_time'),
			responseTime: Math.max(0, integer(row, 'response_time')),
			baseUrl,
			other,
			balance: decimal(row, 'balance'),
			balanceUpdatedTime: unixSeconds(row, 'balance_updated_time'),
			models: models.join(','),
			group: groups.join(',') || 'default',
			usedQuota: Math.max(0, integer(row, 'used_quota')),
			modelMapping: modelMapping.text,
			statusCodeMapping: statusCodeMapping(row, id, report),
			priority: integer(row, 'priority'),
			autoBan: 'auto_ban' in row && row.auto_ban !== null ? (integer(row, 'auto_ban') === 1 ? 1 : 0) : 1,
			otherInfo: otherInfo.text,
			tag: text(row, 'tag').trim(),
			setting: setting.text,
		}
		const problem = outOfRange(channel)
		if (problem) {
			report.skip(problem, label)
			continue
		}
		for (const { column, reason } of NOT_CARRIED) {
			const value = text(row, column).trim()
			if (value && value !== '{}' && value !== 'null') report.note(reason, label)
		}
		const info = jsonObjectText(text(row, 'channel_info')).parsed
		if (info.is_multi_key === true) {
			if (!multiKeyChannel(channel, key, info, { secrets, now, report, label })) continue
		} else {
			channel.key = secrets.encrypt(key.trim())
		}
		channels.push(channel)
	}
	report.imported = channels.length
	return channels
}

const objectOf = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : {})

/**
 * Makes `channel` the multi-key channel new-api's `channel_info` describes, its keys at their
 * indexes; answers false (reported) when no key is left.
 */
function multiKeyChannel(
	channel: ChannelRow, keyText: string, info: Record<string, unknown>,
	{ secrets, now, report, label }: Pick<ChannelImportContext, 'secrets' | 'now' | 'report'> & { label: string },
): boolean {
	const statuses = objectOf(info.multi_key_status_list)
	const reasons = objectOf(info.multi_key_disabled_reason)
	const times = objectOf(info.multi_key_disabled_time)
	const keys: ChannelKeyRow[] = []
	const seen = new Set<string>()
	const problems = { long: 0, repeated: 0, beyond: 0 }
	const encoder = new TextEncoder()
	for (const [index, key] of multipleKeys(keyText).entries()) {
		if (encoder.encode(key).length > CHANNEL_KEY_MAX_BYTES) {
			problems.long++
			continue
		}
		const digest = secrets.digest(key)
		if (seen.has(digest)) {
			problems.repeated++
			continue
		}
		if (keys.length >= CHANNEL_KEYS_MAX) {
			problems.beyond++
			continue
		}
		seen.add(digest)
		const stored = Number(statuses[String(index)] ?? CHANNEL_STATUS.enabled)
		const status = KNOWN_STATUSES.has(stored) ? stored : CHANNEL_STATUS.manuallyDisabled
		const reason = status === CHANNEL_STATUS.enabled ? '' : String(reasons[String(index)] ?? '').slice(0, KEY_LAST_ERROR_MAX_LENGTH)
		const time = Number(times[String(index)] ?? 0)
		keys.push({
			channelId: channel.id, position: index, key: secrets.encrypt(key), digest, hint: keyHint(key), status,
			statusReason: uncodedKeyReason(reason),
			statusTime: status === CHANNEL_STATUS.enabled || !Number.isSafeInteger(time) || time < 0 ? 0 : time,
			createdTime: channel.createdTime ?? now,
		})
	}
	if (problems.long) report.note(`${problems.long} key(s) longer than ${CHANNEL_KEY_MAX_BYTES} bytes left out`, label)
	if (problems.repeated) report.note(`${problems.repeated} repeated key(s) left out`, label)
	if (problems.beyond) report.note(`${problems.beyond} key(s) beyond the ${CHANNEL_KEYS_MAX} a channel holds left out`, label)
	if (keys.length === 0) {
		report.skip('multi-key channel without a key Ferry can keep', label)
		return false
	}
	channel.mode = CHANNEL_MODE.multiKey
	channel.multiKeyMode = info.multi_key_mode === MULTI_KEY_MODE.polling ? MULTI_KEY_MODE.polling : MULTI_KEY_MODE.random
	channel.key = keys[0]!.key
	channel.nextKeyIndex = keys[keys.length - 1]!.position + 1
	channel.keys = keys
	const disabled = keys.filter((key) => key.status !== CHANNEL_STATUS.enabled).length
	report.note(`multi-key channel: ${keys.length} key(s)${disabled ? `, ${disabled} of them disabled` : ''}`, label)
	return true
}
