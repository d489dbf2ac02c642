/**
 * A fake provider behind a pool of keys, with a prompt cache per key: like the real ones, it reports
 * cached input tokens only when the same key has already seen the conversation's prefix (OpenAI's
 * `prompt_tokens_details.cached_tokens`, Claude's `cache_read_input_tokens`). A key told to
 * `rateLimit` answers 429 with `Retry-After` while its window lasts. Every call is recorded with
 * its key, the session the client named (`prompt_cache_key`, Claude's `metadata.user_id`) and its
 * status. For the key-pool tests and `bun run bench:affinity`.
 *
 * Serves `POST /v1/chat/completions` (OpenAI), `POST /v1/messages` (Claude), whole answers only,
 * and `GET /v1/models`, in the shapes of their API references; a key told to `reject` is answered
 * 401 as an invalid key. Tokens are counted as a quarter of the characters.
 */
import { createHash } from 'node:crypto'

export interface PoolCall {
	key: string
	/** The session the client named, or '' for none. */
	session: string
	status: number
	/** Milliseconds since the epoch. */
	at: number
}

export interface FakeKeyPool {
	url: string
	/** Every call, in arrival order. */
	calls: PoolCall[]
	/** Calls answered (not rate-limited) per key. */
	callsByKey: Map<string, number>
	/** Until when (ms since the epoch) a key answers 429, and the Retry-After it sends. */
	rateLimit(key: string, until: number, retryAfterSeconds: number): void
	/** Calls a rate-limited key received while it said to wait. */
	callsDuringRetryAfter: Map<string, number>
	/** A rejected key is answered 401 (an invalid API key) until it is accepted again. */
	reject(key: string, rejected: boolean): void
	/** A forbidden key is answered 403 (the key may not use the model) until it is allowed again. */
	forbid(key: string, forbidden: boolean): void
	stop(): void
}

type Message = { role: string; content: unknown }

const tokensOf = (text: string) => Math.ceil(text.length / 4)
const textOf = (messages: readonly Message[]) => messages.map((message) => `${message.role}:${typeof message.content === 'string' ? message.content : JSON.stringify(message.content)}`).join('\n')
const hashOf = (messages: readonly Message[]) => createHash('sha256').update(textOf(messages)).digest('hex')

export function startFakeKeyPool(): FakeKeyPool {
	const seenByKey = new Map<string, Set<string>>()
	const callsByKey = new Map<string, number>()
	const limits = new Map<string, { until: number; retryAfter: number }>()
	const callsDuringRetryAfter = new Map<string, number>()
	const calls: PoolCall[] = []
	const rejected = new Set<string>()
	const forbidden = new Set<string>()
	const invalidKey = (claude: boolean) => Response.json(
		claude ? { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } : { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } },
		{ status: 401 },
	)

	/** The conversation answered: what it cached, what it reports, and the reply (the next turn's prefix grows by it). */
	function answer(key: string, messages: Message[], turnText: string) {
		const seen = seenByKey.get(key) ?? new Set<string>()
		seenByKey.set(key, seen)
		const prefix = messages.slice(0, -1)
		const cached = prefix.length > 0 && seen.has(hashOf(prefix)) ? tokensOf(textOf(prefix)) : 0
		const reply = `Reply to: ${turnText.slice(0, 40)}`
		seen.add(hashOf([...messages, { role: 'assistant', content: reply }]))
		callsByKey.set(key, (callsByKey.get(key) ?? 0) + 1)
		return { prompt: tokensOf(textOf(messages)), cached, reply, completion: tokensOf(reply) }
	}

	const server = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		async fetch(request) {
			const url = new URL(request.url)
			const key = (request.headers.get('x-api-key') ?? request.headers.get('authorization')?.replace(/^Bearer\s+/i, '') ?? '').trim()
			if (request.method === 'GET' && url.pathname === '/v1/models') {
				if (rejected.has(key)) return invalidKey(false)
				return Response.json({ object: 'list', data: [{ id: 'pool-gpt', object: 'model', created: 0, owned_by: 'fake' }] })
			}
			const body = await request.json() as { model: string; messages: Message[]; system?: string; prompt_cache_key?: string; metadata?: { user_id?: string } }
			const session = body.prompt_cache_key ?? body.metadata?.user_id ?? ''
			const limit = limits.get(key)
			if (limit && limit.until > Date.now()) {
				callsDuringRetryAfter.set(key, (callsDuringRetryAfter.get(key) ?? 0) + 1)
				calls.push({ key, session, status: 429, at: Date.now() })
				const error = url.pathname === '/v1/messages'
					? { type: 'error', error: { type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit' } }
					: { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } }
				return Response.json(error, { status: 429, headers: { 'retry-after': String(limit.retryAfter) } })
			}
			if (rejected.has(key)) {
				calls.push({ key, session, status: 401, at: Date.now() })
				return invalidKey(url.pathname === '/v1/messages')
			}
			if (forbidden.has(key)) {
				calls.push({ key, session, status: 403, at: Date.now() })
				return Response.json({ error: { message: 'Project does not have access to this model', type: 'invalid_request_error', code: 'model_not_found' } }, { status: 403 })
			}
			calls.push({ key, session, status: 200, at: Date.now() })
			const messages = body.system ? [{ role: 'system', content: body.system }, ...body.messages] : body.messages
			const last = messages[messages.length - 1]
			const done = answer(key, messages, typeof last?.content === 'string' ? last.content : '')
			if (url.pathname === '/v1/messages') {
				return Response.json({
					id: `msg_${crypto.randomUUID()}`, type: 'message', role: 'assistant', model: body.model, content: [{ type: 'text', text: done.reply }],
					stop_reason: 'end_turn', stop_sequence: null,
					usage: { input_tokens: done.prompt - done.cached, cache_read_input_tokens: done.cached, cache_creation_input_tokens: 0, output_tokens: done.completion },
				})
			}
			return Response.json({
				id: `chatcmpl-${crypto.randomUUID()}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: body.model,
				choices: [{ index: 0, message: { role: 'assistant', content: done.reply }, finish_reason: 'stop' }],
				usage: { prompt_tokens: done.prompt, completion_tokens: done.completion, total_tokens: done.prompt + done.completion, prompt_tokens_details: { cached_tokens: done.cached } },
			})
		},
	})
	return {
		url: `http://127.0.0.1:${server.port}`,
		calls,
		callsByKey,
		callsDuringRetryAfter,
		rateLimit(key, until, retryAfterSeconds) {
			limits.set(key, { until, retryAfter: retryAfterSeconds })
		},
		reject(key, on) {
			if (on) rejected.add(key)
			else rejected.delete(key)
		},
		forbid(key, on) {
			if (on) forbidden.add(key)
			else forbidden.delete(key)
		},
		stop: () => server.stop(true),
	}
}
