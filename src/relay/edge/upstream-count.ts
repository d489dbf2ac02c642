/**
 * `count_tokens` asked of the upstream: a Claude count request goes to the channel a messages call
 * of the same model would go to (the same acceptance, group and router), and when that channel
 * counts Claude's way itself (an Anthropic channel: `sameFormat.claude.countRequest`) its
 * `input_tokens` is the answer — Claude's own count, which the gateway's o200k count only
 * approximates.
 *
 * Undefined, and the caller answers its local count, when: routing finds no channel (a model no
 * channel serves, one the token may not use, no usable group); the channel is of another kind (no
 * Claude-native count); its setting changes request bodies (its messages calls convert, so the
 * client's body is not what it would see); the model's upstream name differs and the body is large
 * (renaming it needs a parse, which a count never does on the main thread for a large body); or the
 * upstream's answer is not a count (an error, a timeout, a malformed answer). A count is free: nothing
 * is held, billed or logged as a call, and of the upstream's answer only the number reaches the
 * client — never its error text, which could echo the channel's key.
 */
import type { Dependencies } from '@/dependencies'
import type { RelayCaller } from '../caller'
import { claudeWireHeaders } from '../formats/claude/same-format'
import { isObject } from '../formats/json'
import { adaptorFor, type ServiceCall } from '../providers/registry'
import type { RelayServices } from '../services'
import { allowModel, callGroup } from '../stages/admit'
import { keyedChannel } from '../stages/route'
import { changesBody } from '../upstream/channel-setting'
import { upstreamModel } from '../upstream/model-mapping'
import { canTakeKey, channelCanTake } from '../upstream/open'
import { LARGE_BODY_BYTES, parseCallBody } from './read-body'

/** How long a count waits for the upstream before answering its local count. */
const COUNT_TIMEOUT_MS = 10_000

export interface ClaudeCount {
	/** The model the request names. */
	model: string
	/** The client's count request as it sent it. */
	bytes: Uint8Array<ArrayBuffer>
	/** The client's headers (only Claude's wire headers, its version and betas, travel). */
	headers: Headers
	/** The client's `?beta=` query value. */
	beta: string | null
	signal: AbortSignal
}

export async function upstreamClaudeCount(dependencies: Dependencies, relay: RelayServices, caller: RelayCaller, count: ClaudeCount): Promise<number | undefined> {
	const { model } = count
	// As admit decides for a messages call: the client's own format unless answers are checked for sensitive words.
	const native = relay.sensitiveWords.forAnswers() === undefined ? 'claude' as const : undefined
	const service: ServiceCall = { endpoint: 'chat', stream: false, native, nativeRequired: false }
	const acceptance = { accepts: (channel: Parameters<typeof channelCanTake>[0]) => channelCanTake(channel, { ...service, model }), cacheKey: canTakeKey(service) }
	let group: string
	try {
		allowModel(caller, model)
		group = callGroup(dependencies, relay, caller, model, acceptance)
	} catch {
		return undefined
	}
	const target = relay.router.route({ caller, group, model, acceptance }, [])
	if (!target) return undefined
	const channel = keyedChannel(target)
	const adaptor = adaptorFor(channel.type)
	const countRequest = adaptor?.sameFormat?.claude?.countRequest
	if (!adaptor || !countRequest || changesBody(channel.setting)) return undefined
	let body: Uint8Array<ArrayBuffer> | string = count.bytes
	if (channel.setting.pass_through_body_enabled !== true) {
		let mapped: string
		try {
			mapped = upstreamModel(channel.modelMapping, model)
		} catch {
			return undefined
		}
		if (mapped !== model) {
			if (count.bytes.byteLength > LARGE_BODY_BYTES) return undefined
			const { value } = parseCallBody(count.bytes)
			if (!isObject(value)) return undefined
			body = JSON.stringify({ ...value, model: mapped })
		}
	}
	const upstreamChannel = channel.baseUrl ? channel : { ...channel, baseUrl: adaptor.defaultBaseUrl }
	const { url, headers } = countRequest(upstreamChannel, { headers: claudeWireHeaders(count.headers), search: count.beta === 'true' ? '?beta=true' : '' })
	try {
		const response = await relay.outbound(url, { method: 'POST', headers, body, signal: AbortSignal.any([count.signal, AbortSignal.timeout(COUNT_TIMEOUT_MS)]) })
		const text = await response.text()
		if (!response.ok) {
			dependencies.logger.warn('the upstream refused a token count; answered the local count', { channelId: channel.id, status: response.status })
			return undefined
		}
		const answer: unknown = JSON.parse(text)
		const tokens = isObject(answer) ? answer.input_tokens : undefined
		if (typeof tokens === 'number' && Number.isSafeInteger(tokens) && tokens >= 0) return tokens
		dependencies.logger.warn('the upstream answered a token count without input_tokens; answered the local count', { channelId: channel.id })
	} catch (error) {
		dependencies.logger.warn('a token count did not reach the upstream; answered the local count', { channelId: channel.id, reason: error instanceof Error ? error.name : 'unknown' })
	}
	return undefined
}
