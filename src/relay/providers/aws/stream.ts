/**
 * Bedrock's `invoke-with-response-stream` answer → OpenAI chunks. The body is an AWS event stream
 * whose `chunk` events carry `{"bytes": "<base64>"}`, each a Claude stream event, converted by the
 * Anthropic adaptor. `exception` messages end the stream
 * as failed, showing the client Bedrock's exception type and message. The token counts Bedrock
 * adds to `message_stop` (`amazon-bedrock-invocationMetrics`) are passed on as a last
 * `message_delta`, whose counts replace the earlier ones.
 */
import type { BodyReader } from '@/lib/outbound'
import { RelayError } from '../../errors'
import type { ClaudeUsage } from '../../formats/claude/usage'
import { openAIStreamFromClaudeEvents } from '../anthropic/stream'
import { readEventStream, type EventStreamMessage } from './event-stream'
import type { EventReader } from '../../formats/events'

type Json = Record<string, unknown>

const STREAM_FAILURE_STATUS = 502

const INVOCATION_METRICS_FIELD = 'amazon-bedrock-invocationMetrics'

const METRIC_TO_CLAUDE_USAGE: Record<string, keyof ClaudeUsage> = {
	inputTokenCount: 'input_tokens',
	outputTokenCount: 'output_tokens',
	cacheReadInputTokenCount: 'cache_read_input_tokens',
	cacheWriteInputTokenCount: 'cache_creation_input_tokens',
}

const payloadDecoder = new TextDecoder()
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

function claudeUsageFromMetrics(metrics: unknown): ClaudeUsage | undefined {
	if (!isObject(metrics)) return undefined
	const usage: ClaudeUsage = {}
	for (const [metric, field] of Object.entries(METRIC_TO_CLAUDE_USAGE)) if (typeof metrics[metric] === 'number') usage[field] = metrics[metric]
	return Object.keys(usage).length > 0 ? usage : undefined
}

function failure(message: EventStreamMessage): RelayError {
	const kind = String(message.headers[':exception-type'] ?? message.headers[':error-code'] ?? 'exception')
	let text = typeof message.headers[':error-message'] === 'string' ? message.headers[':error-message'] : ''
	try {
		const parsed = JSON.parse(payloadDecoder.decode(message.payload)) as unknown
		if (isObject(parsed) && typeof parsed.message === 'string') text = parsed.message
	} catch {
		// An exception without a JSON body still ends the stream, named by its type.
	}
	return new RelayError(STREAM_FAILURE_STATUS, text ? `${kind}: ${text}` : kind, 'upstream_error', 'upstream_stream_exception')
}

/** The Claude events inside one `chunk` message. */
function claudeEvents(message: EventStreamMessage): Json[] {
	const envelope = JSON.parse(payloadDecoder.decode(message.payload)) as unknown
	if (!isObject(envelope) || typeof envelope.bytes !== 'string') throw new SyntaxError('a Bedrock chunk carries no bytes')
	const event = JSON.parse(Buffer.from(envelope.bytes, 'base64').toString('utf8')) as unknown
	if (!isObject(event) || typeof event.type !== 'string') throw new SyntaxError('a Bedrock chunk is not a Claude stream event')
	const usage = event.type === 'message_stop' ? claudeUsageFromMetrics(event[INVOCATION_METRICS_FIELD]) : undefined
	return usage ? [{ type: 'message_delta', delta: {}, usage }, event] : [event]
}

/**
 * Bedrock's stream as Claude's own events, for a Claude client whose call passes through (its
 * invocation metrics, when present, as a last `message_delta` before `message_stop`).
 */
export function claudeEventsFromBedrock(source: BodyReader): EventReader {
	const messages = readEventStream(source)
	return {
		async read() {
			for (;;) {
				const message = await messages.next()
				if (!message) return { events: [], done: true }
				const kind = message.headers[':message-type']
				if (kind === 'exception' || kind === 'error') throw failure(message)
				if (kind === 'event' && message.headers[':event-type'] === 'chunk') return { events: claudeEvents(message).map((data) => ({ type: 'data' as const, data })), done: false }
			}
		},
		cancel: (reason) => messages.cancel(reason),
	}
}

export function openAIStreamFromBedrock(source: BodyReader, model: string, request?: Record<string, unknown>): EventReader {
	const messages = readEventStream(source)
	return openAIStreamFromClaudeEvents(async () => {
		const message = await messages.next()
		if (!message) return undefined
		const kind = message.headers[':message-type']
		if (kind === 'exception' || kind === 'error') throw failure(message)
		if (kind === 'event' && message.headers[':event-type'] === 'chunk') return claudeEvents(message)
		// Other event types (initial-response, ones added later) carry nothing to pass on.
		return []
	}, (reason) => messages.cancel(reason), model, request)
}
