/**
 * Upstream detection (docs/specification/channels.md#the-channel-tools `GET /api/channel/test_upstream/{id}`): a few harmless probes
 * (the model list, a malformed request, a request for a model that does not exist) and a look at
 * how each is answered — headers and error shapes that give away OpenAI itself, Azure's API
 * gateway, a Python relay (FastAPI/uvicorn) or a Go relay (one-api/new-api). Results accumulate in
 * the channel's `other_info.upstream_detection`, one group per combination of kinds seen together.
 */
import { eq } from 'drizzle-orm'
import { UPSTREAM_CLIENT_TYPE, type UpstreamDetection, type UpstreamGroup, upstreamDetectionSchema } from '@shared/channel'
import { rows } from '@/db'
import type { Dependencies } from '@/dependencies'
import { nowSeconds } from '@/lib/clock'
import { CHANNEL_TOOL_MESSAGES } from '@shared/messages/channels'
import { OutboundError } from '@/lib/outbound'
import { refused } from '../../errors'
import { parseJsonObject } from '@/db/stores/channels'
import { baseUrlOf, firstKey, loadToolChannel, outboundFailure, upstreamSend, withoutV1, withUsableKey, type ToolChannel } from './upstream'

const UNKNOWN_PROBE_MODEL = 'ferry-upstream-probe-no-such-model'
const DETECTION_KEY = 'upstream_detection'
/** Error `type`s only the Go relays use. */
const GO_RELAY_ERROR_TYPES = new Set(['new_api_error', 'one_api_error', 'shell_api_error'])
/** one-api and its forks append the relay's own request id to upstream messages. */
const GO_RELAY_REQUEST_ID = /\(request id: [^)]+\)/
/** Go's net/http (and gin) answer an unknown route with this plain text. */
const GO_NOT_FOUND = '404 page not found'
const PYTHON_SERVERS = /uvicorn|hypercorn|gunicorn|werkzeug|daphne|granian|python/i

type ClientType = (typeof UPSTREAM_CLIENT_TYPE)[keyof typeof UPSTREAM_CLIENT_TYPE]

interface ProbeAnswer {
	status: number
	headers: Headers
	text: string
}

function parsed(text: string): Record<string, any> | undefined {
	try {
		const value: unknown = JSON.parse(text)
		return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, any> : undefined
	} catch {
		return undefined
	}
}

/** The kinds of layer one answer shows; `unknown` when it shows none. */
function classifyAnswer(answer: ProbeAnswer): ClientType[] {
	const { headers, text } = answer
	const body = parsed(text)
	const headerNames = [...headers.keys()]
	const found = new Set<ClientType>()
	if (headers.has('apim-request-id') || headerNames.some((name) => name.startsWith('x-ms-'))) found.add(UPSTREAM_CLIENT_TYPE.azure)
	const errorType = typeof body?.error === 'object' ? body.error?.type : undefined
	const errorMessage = typeof body?.error === 'object' ? String(body.error?.message ?? '') : String(body?.message ?? '')
	if (headers.has('x-oneapi-request-id') || headers.has('x-new-api-version') || GO_RELAY_ERROR_TYPES.has(errorType)
		|| GO_RELAY_REQUEST_ID.test(errorMessage) || text.trim() === GO_NOT_FOUND) {
		found.add(UPSTREAM_CLIENT_TYPE.go)
	}
	if (PYTHON_SERVERS.test(headers.get('server') ?? '') || (body && 'detail' in body && !('error' in body))) found.add(UPSTREAM_CLIENT_TYPE.python)
	if (headers.has('openai-organization') || headers.has('openai-processing-ms') || headers.has('openai-version')
		|| /^req_/.test(headers.get('x-request-id') ?? '')) {
		found.add(UPSTREAM_CLIENT_TYPE.openai)
	}
	if (found.size === 0) found.add(UPSTREAM_CLIENT_TYPE.unknown)
	return [...found].sort()
}

/** Each probe's answer; a probe the network refused is left out. */
async function sendProbes(dependencies: Dependencies, channel: ToolChannel): Promise<ProbeAnswer[]> {
	const base = withoutV1(baseUrlOf(channel.type, channel.baseUrl))
	if (!base) throw refused(CHANNEL_TOOL_MESSAGES.noBaseUrlToProbe)
	const headers = { authorization: `Bearer ${firstKey(channel.key)}`, 'content-type': 'application/json', accept: 'application/json' }
	const unknownModel = JSON.stringify({ model: UNKNOWN_PROBE_MODEL, messages: [{ role: 'user', content: 'hi' }], max_tokens: 1 })
	const probes = [
		() => upstreamSend(dependencies, `${base}/v1/models`, { method: 'GET', headers }),
		() => upstreamSend(dependencies, `${base}/v1/chat/completions`, { method: 'POST', headers, body: '{' }),
		() => upstreamSend(dependencies, `${base}/v1/chat/completions`, { method: 'POST', headers, body: unknownModel }),
	]
	const answers: ProbeAnswer[] = []
	let lastError: unknown
	for (const probe of probes) {
		try {
			answers.push(await probe())
		} catch (error) {
			lastError = error
		}
	}
	if (answers.length === 0) {
		throw refused(lastError instanceof OutboundError ? outboundFailure(lastError, CHANNEL_TOOL_MESSAGES.upstreamUnreachable) : CHANNEL_TOOL_MESSAGES.upstreamUnreachable)
	}
	return answers
}

/** Adds one run's answers to the groups seen before. */
function mergeGroups(previous: UpstreamGroup[], answers: ClientType[][], now: number): UpstreamGroup[] {
	const groups = previous.map((group) => ({ ...group, counts: { ...group.counts } }))
	for (const kinds of answers) {
		const signature = kinds.join('+')
		let group = groups.find((candidate) => [...candidate.client_types].sort().join('+') === signature)
		if (!group) {
			group = { client_types: kinds, counts: {}, first_seen: now, last_seen: now }
			groups.push(group)
		}
		for (const kind of kinds) group.counts[kind] = (group.counts[kind] ?? 0) + 1
		group.last_seen = now
	}
	return groups
}

function storedGroups(otherInfo: string): UpstreamGroup[] {
	const stored = upstreamDetectionSchema.safeParse(parseJsonObject(otherInfo)[DETECTION_KEY])
	return stored.success ? stored.data.groups : []
}

export async function detectUpstream(dependencies: Dependencies, id: number): Promise<UpstreamDetection> {
	const channel = withUsableKey(await loadToolChannel(dependencies, id))
	const answers = (await sendProbes(dependencies, channel)).map(classifyAnswer)
	const now = nowSeconds()
	const groups = await dependencies.store.transaction(function* (tx, tables) {
		const { channels } = tables
		const [current] = yield* rows(tx.select({ otherInfo: channels.otherInfo }).from(channels).where(eq(channels.id, id)))
		const merged = mergeGroups(storedGroups(current?.otherInfo ?? ''), answers, now)
		const otherInfo = JSON.stringify({ ...parseJsonObject(current?.otherInfo ?? ''), [DETECTION_KEY]: { groups: merged } })
		yield* rows(tx.update(channels).set({ otherInfo }).where(eq(channels.id, id)).returning({ id: channels.id }))
		return merged
	})
	return { groups }
}
