/**
 * Bad input from any client, fuzzed: a seeded, bounded run of malformed, deeply nested, huge and
 * oddly typed bodies, in every content type (JSON, forms, multipart, text, others, none), against
 * the public and signed-in `/api` routes and every relay endpoint of a real Ferry on loopback
 * (SQLite: what is fuzzed is the reading of requests, not the database). Never a 500; every
 * refusal well-formed in the caller's format; and, probed from another thread throughout, no body
 * holds the server from answering others within 300 ms. The shapes of issues 12 and 26 are always
 * among the bodies: 80 KB of `[[[…]]]` (also as a form field), a prompt of "A" × 200 000 for
 * count_tokens, and one field name repeated 40 000 times.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { MAX_FORM_FIELDS, MAX_JSON_DEPTH } from '@shared/api'
import type { Caller } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { multipartBody } from '../helpers/multipart'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'
import { median, probeThroughout } from '../helpers/stall-probe'

const SEED = 12
const BODIES_PER_ROUTE = 60
const CONCURRENT_ROUTES = 4
const MODEL = 'gpt-4o-mini'
/** The bound on how long another client waits while the fuzz runs. */
const STATUS_BOUND_MS = 300
/** The harness's body limit (testConfig.maxBodyBytes): bodies are sized around it. */
const BODY_LIMIT = 1024 * 1024
const DEEP = '['.repeat(40_000) + ']'.repeat(40_000)

type Format = 'api' | 'openai' | 'claude' | 'gemini'
type Route = { method: string; path: string; format: Format; caller: 'anonymous' | 'user' | 'token'; template: Record<string, unknown> }

const chat = { model: MODEL, messages: [{ role: 'user', content: 'Hi' }], max_tokens: 16 }
const claude = { model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] }
const gemini = { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] }

const ROUTES: Route[] = [
	{ method: 'POST', path: '/api/user/login', format: 'api', caller: 'anonymous', template: { username: 'fuzzer', password: 'password123' } },
	{ method: 'POST', path: '/api/user/register', format: 'api', caller: 'anonymous', template: { username: 'newcomer', password: 'password123', password2: 'password123' } },
	{ method: 'POST', path: '/api/user/reset', format: 'api', caller: 'anonymous', template: { email: 'a@example.com', token: 'x' } },
	{ method: 'PUT', path: '/api/user/self', format: 'api', caller: 'user', template: { display_name: 'Fuzzer' } },
	{ method: 'POST', path: '/api/user/aff_transfer', format: 'api', caller: 'user', template: { quota: 1 } },
	{ method: 'POST', path: '/api/user/topup', format: 'api', caller: 'user', template: { key: 'no-such-code' } },
	{ method: 'POST', path: '/api/user/amount', format: 'api', caller: 'user', template: { amount: 10 } },
	{ method: 'POST', path: '/api/user/pay', format: 'api', caller: 'user', template: { amount: 10, payment_method: 'alipay' } },
	{ method: 'POST', path: '/api/token/', format: 'api', caller: 'user', template: { name: 'fuzzed', remain_quota: 0, unlimited_quota: true } },
	{ method: 'PUT', path: '/api/token/', format: 'api', caller: 'user', template: { id: 1, name: 'fuzzed' } },
	{ method: 'POST', path: '/v1/chat/completions', format: 'openai', caller: 'token', template: chat },
	{ method: 'POST', path: '/v1/completions', format: 'openai', caller: 'token', template: { model: MODEL, prompt: 'Hi', max_tokens: 16 } },
	{ method: 'POST', path: '/v1/embeddings', format: 'openai', caller: 'token', template: { model: MODEL, input: 'Hi' } },
	{ method: 'POST', path: '/v1/rerank', format: 'openai', caller: 'token', template: { model: MODEL, query: 'q', documents: ['a', 'b'] } },
	{ method: 'POST', path: '/pg/chat/completions', format: 'openai', caller: 'user', template: chat },
	{ method: 'POST', path: '/v1/images/generations', format: 'openai', caller: 'token', template: { model: MODEL, prompt: 'A ferry', n: 1, size: '1024x1024' } },
	{ method: 'POST', path: '/v1/images/edits', format: 'openai', caller: 'token', template: { model: MODEL, prompt: 'A ferry', images: [{ image_url: 'https://example.com/a.png' }] } },
	{ method: 'POST', path: '/v1/audio/speech', format: 'openai', caller: 'token', template: { model: MODEL, voice: 'alloy', input: 'Hi' } },
	{ method: 'POST', path: '/v1/audio/transcriptions', format: 'openai', caller: 'token', template: { model: MODEL, response_format: 'json' } },
	{ method: 'POST', path: '/v1/moderations', format: 'openai', caller: 'token', template: { model: MODEL, input: ['Hi', 'there'] } },
	{ method: 'POST', path: '/v1/responses', format: 'openai', caller: 'token', template: { model: MODEL, input: 'Hi', max_output_tokens: 16 } },
	{ method: 'POST', path: '/v1/responses/input_tokens', format: 'openai', caller: 'token', template: { model: MODEL, input: 'Hi' } },
	{ method: 'POST', path: '/v1/messages', format: 'claude', caller: 'token', template: claude },
	{ method: 'POST', path: '/v1/messages/count_tokens', format: 'claude', caller: 'token', template: claude },
	{ method: 'POST', path: `/v1beta/models/${MODEL}:generateContent`, format: 'gemini', caller: 'token', template: gemini },
	{ method: 'POST', path: `/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`, format: 'gemini', caller: 'token', template: gemini },
]

/** mulberry32: the same bodies on every run. */
function seeded(seed: number) {
	return () => {
		seed = (seed + 0x6d2b79f5) | 0
		let value = Math.imul(seed ^ (seed >>> 15), 1 | seed)
		value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value
		return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296
	}
}

type Body = { text: string; contentType?: string }

function bodyMaker(random: () => number) {
	const pick = <Item>(items: readonly Item[]): Item => items[Math.floor(random() * items.length)]!
	const oddStrings = ['', ' ', '\u0000', '\ud800', '<|endoftext|>', '🙂'.repeat(50), 'x'.repeat(300_000), '__proto__', '{"nested":"json"}', 'A'.repeat(200_000), '\\', '"', '中文', '\u202e']
	const oddNumbers = [0, -0, -1, 1.5, 2 ** 31, 2 ** 53, 2 ** 53 + 2, 1e308, -1e308, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]

	function oddValue(depth = 0): unknown {
		switch (Math.floor(random() * (depth > 2 ? 4 : 6))) {
			case 0: return pick(oddStrings)
			case 1: return pick(oddNumbers)
			case 2: return pick([true, false, null])
			case 3: return pick([[], {}, [null], { '': '' }])
			case 4: return Array.from({ length: 1 + Math.floor(random() * 4) }, () => oddValue(depth + 1))
			default: return Object.fromEntries(Array.from({ length: 1 + Math.floor(random() * 4) }, (_, index) => [pick(['model', 'messages', 'content', 'role', '__proto__', 'constructor', `k${index}`]), oddValue(depth + 1)]))
		}
	}

	/** The value with one value somewhere inside it (or itself) replaced by an odd one. */
	function replacedSomewhere(value: unknown): unknown {
		if (Array.isArray(value) && value.length > 0 && random() >= 0.3) {
			const chosen = Math.floor(random() * value.length)
			return value.map((item, index) => (index === chosen ? replacedSomewhere(item) : item))
		}
		if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0 && random() >= 0.3) {
			const key = pick(Object.keys(value))
			return { ...value, [key]: replacedSomewhere((value as Record<string, unknown>)[key]) }
		}
		return oddValue()
	}

	function nestedText(depth: number): string {
		let text = '0'
		for (let level = 0; level < depth; level++) text = random() < 0.5 ? `[${text}]` : `{"k":${text}}`
		return text
	}

	/** A form value: the field's own as text, or something odd as text (never read as JSON). */
	const formValue = (value: unknown): string => {
		switch (Math.floor(random() * 5)) {
			case 0: return nestedText(MAX_JSON_DEPTH + 1 + Math.floor(random() * 2_000))
			case 1: return pick([DEEP, '{"model":"x"}', '[]', '', '\u0000', '%zz', '+&=;'])
			case 2: return String(oddValue())
			default: return typeof value === 'string' ? value : JSON.stringify(value) ?? ''
		}
	}

	/** Form fields from the template, some repeated: a few times, right at the field limit, just past it, or far past it. */
	const formFields = (template: Record<string, unknown>): [string, string][] => {
		const fields: [string, string][] = Object.entries(template).map(([name, value]) => [name, formValue(value)])
		const repeats = pick([0, 0, 3, MAX_FORM_FIELDS - fields.length, MAX_FORM_FIELDS + 1, 40_000])
		const repeated = pick([...Object.keys(template), 'x', '__proto__', 'file'])
		for (let copy = 0; copy < repeats; copy++) fields.push([repeated, 'y'])
		return fields
	}

	/** One body for a route: its template mutated, or something that is not the template at all. */
	return (template: Record<string, unknown>): Body => {
		const keys = Object.keys(template)
		switch (Math.floor(random() * 15)) {
			case 10:
				// The template as a urlencoded form.
				return { text: new URLSearchParams(formFields(template)).toString(), contentType: 'application/x-www-form-urlencoded' }
			case 11:
				// The template as multipart, now and then with a broken or missing boundary.
				return { ...multipartBody(formFields(template)), ...pick([{}, {}, {}, { contentType: 'multipart/form-data' }, { contentType: 'multipart/form-data; boundary=other' }]) }
			case 12:
				// The template under a type that is neither JSON nor a form.
				return { text: JSON.stringify(template), contentType: pick(['application/octet-stream', 'application/xml', 'image/png', 'text/html', 'application/vnd.api+json']) }
			case 13: {
				// Sized around the body limit: just under, just over, far over.
				const size = pick([BODY_LIMIT - 100, BODY_LIMIT + 1, 3 * BODY_LIMIT])
				return { text: JSON.stringify({ ...template, [pick(keys)]: 'x'.repeat(size) }), contentType: pick([undefined, 'text/plain', 'application/x-www-form-urlencoded']) }
			}
			case 14:
				// Plain text that is not JSON.
				return { text: pick(['hello', DEEP, 'a=1&b=2', '']), contentType: 'text/plain' }
			case 0: {
				// Malformed JSON: the template cut short, or bytes that are not JSON.
				const text = JSON.stringify(template)
				return { text: pick([text.slice(0, Math.floor(random() * text.length)), '{', ']', '{"a":1,}', "{'a':1}", 'NaN', '\ufeff{}', '{"a":"\\x"}', '[1,2', '{"a" 1}', '\u0000\u0001\u0002', '// comment\n{}']) }
			}
			case 1: {
				// Nested deeper than allowed, inside a field or as the whole body.
				const depth = MAX_JSON_DEPTH + 1 + Math.floor(random() * 200)
				return { text: random() < 0.5 ? nestedText(depth) : `{"${pick(keys)}":${nestedText(depth)}}` }
			}
			case 2:
				// Nested exactly as deep as allowed, in place of a field.
				return { text: `{"${pick(keys)}":${nestedText(MAX_JSON_DEPTH - 1)}}` }
			case 3:
				// A field of an odd type or size.
				return { text: JSON.stringify({ ...template, [pick(keys)]: oddValue() }) }
			case 4: {
				// A field missing, another unknown.
				const { [pick(keys)]: _missing, ...rest } = template
				return { text: JSON.stringify({ ...rest, [pick(['extra', '__proto__', 'constructor', 'toJSON'])]: oddValue() }) }
			}
			case 5:
				// Not an object at all.
				return { text: JSON.stringify(oddValue()) }
			case 6:
				// The right JSON under another content type, or none.
				return { text: JSON.stringify(template), contentType: pick(['', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/JSON', 'application/json; charset=latin1']) }
			case 7:
				// A huge list in place of a field.
				return { text: JSON.stringify({ ...template, [pick(keys)]: new Array(20_000 + Math.floor(random() * 30_000)).fill(pick([1, 'x', null, {}])) }) }
			case 8:
				// A value somewhere inside replaced.
				return { text: JSON.stringify(replacedSomewhere(template)) }
			default:
				return { text: JSON.stringify(template) }
		}
	}
}

/** What is wrong with an answer in the caller's format, or undefined. */
function problemWith(format: Format, status: number, text: string): string | undefined {
	if (status === 500) return 'a 500'
	if (format === 'api' ? status >= 500 : status >= 500 && status !== 502 && status !== 503) return `status ${status}`
	let body: any
	try {
		body = JSON.parse(text)
	} catch {
		// A relay success may be a stream; anything else must be JSON.
		return format !== 'api' && status < 400 ? undefined : 'a body that is not JSON'
	}
	const isText = (value: unknown) => typeof value === 'string' && value.length > 0
	if (format === 'api') {
		if (typeof body?.success !== 'boolean' || typeof body.message !== 'string') return 'not the /api envelope'
		return status >= 400 && (body.success || !isText(body.message)) ? 'a refusal without success: false and a message' : undefined
	}
	if (status < 400) return undefined
	if (format === 'openai') return isText(body?.error?.message) && isText(body.error.type) ? undefined : 'not an OpenAI error'
	if (format === 'claude') return body?.type === 'error' && isText(body.error?.message) && isText(body.error?.type) ? undefined : 'not a Claude error'
	return typeof body?.error?.code === 'number' && isText(body.error.message) && isText(body.error.status) ? undefined : 'not a Gemini error'
}

describe('fuzzed request bodies', () => {
	let harness: RelayHarness
	let user: Caller
	let key: string
	beforeAll(async () => {
		harness = await startRelayHarness(databaseTargets()[0]!)
		const upstream = harness.startUpstream()
		await harness.createChannel({ base_url: upstream.url, models: MODEL })
		user = await harness.ferry.createUser('fuzzer')
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: user.userId, quota: 50_000_000 } })
		key = (await harness.createToken({}, user)).key
	})
	afterAll(() => harness.close())

	function send(route: Route, body: Body) {
		const headers: Record<string, string> = {}
		if (body.contentType !== '') headers['content-type'] = body.contentType ?? 'application/json'
		if (route.caller === 'user') Object.assign(headers, { cookie: user.cookie!, 'new-api-user': String(user.userId) })
		if (route.caller === 'token') Object.assign(headers, { authorization: `Bearer ${key}`, 'x-api-key': key, 'x-goog-api-key': key })
		return fetch(`${harness.baseUrl}${route.path}`, { method: route.method, headers, body: body.text })
	}

	test('no body, however malformed, deep, huge, repeated or oddly typed, in any content type, gets a 500 or an answer out of the caller\'s format, or holds others for 300 ms', async () => {
		const random = seeded(SEED)
		const makeBody = bodyMaker(random)
		const cases = ROUTES.flatMap((route) => [
			// The issues' shapes, for every route.
			{ route, body: { text: DEEP } },
			{ route, body: { text: JSON.stringify({ ...route.template, messages: [{ role: 'user', content: 'A'.repeat(200_000) }] }) } },
			{ route, body: multipartBody([['username', DEEP], ['model', MODEL]]) },
			{ route, body: multipartBody(Array.from({ length: 40_000 }, () => ['x', 'y'] as const)) },
			...Array.from({ length: BODIES_PER_ROUTE }, () => ({ route, body: makeBody(route.template) })),
		])
		const problems: string[] = []
		// The tokenizer loads once, on first use, on a thread of its own (half a second of CPU): loaded
		// before the probes start, so that they measure the bodies and not that.
		await send(ROUTES.find((route) => route.path === '/v1/messages/count_tokens')!, { text: JSON.stringify(claude) })
		const probes = probeThroughout(harness.baseUrl)
		let next = 0
		await Promise.all(Array.from({ length: CONCURRENT_ROUTES }, async () => {
			while (next < cases.length) {
				const { route, body } = cases[next++]!
				const response = await send(route, body)
				const problem = problemWith(route.format, response.status, await response.text())
				if (problem) problems.push(`${route.method} ${route.path} with ${JSON.stringify(body.text.slice(0, 80))} (${body.text.length} characters, ${body.contentType ?? 'application/json'}): ${problem}`)
			}
		}))
		const latencies = await probes.stop()
		expect(problems).toEqual([])
		expect(median(latencies)).toBeLessThan(STATUS_BOUND_MS)
		expect(Math.max(...latencies)).toBeLessThan(STATUS_BOUND_MS)
		expect((await fetch(`${harness.baseUrl}/api/status`)).status).toBe(200)
	}, 180_000)
})
