/**
 * The bound on how deeply a request body nests (`MAX_JSON_DEPTH`): bodies up to it are read as
 * before, on `/api` and the relay; one level more is a 400 in the caller's format, before any
 * validation, hold or upstream call.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { MAX_JSON_DEPTH, MESSAGES } from '@shared/api'
import type { Caller } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import type { FakeOpenAI } from '../helpers/fake-openai'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const MODEL = 'gpt-4o-mini'

/**
 * A chat request nested exactly `depth` levels deep through its tool schema: the body, `tools`, the
 * tool and `function` are four levels; each object of the schema adds two (itself and its
 * `properties`), and the innermost one, a string schema, one more, or two with an `enum` list.
 */
function chatWithToolDepth(depth: number) {
	const innermostLevels = depth % 2 === 0 ? 2 : 1
	let schema: Record<string, unknown> = innermostLevels === 2 ? { type: 'string', enum: ['a'] } : { type: 'string' }
	for (let level = 0; level < (depth - 4 - innermostLevels) / 2; level++) schema = { type: 'object', properties: { child: schema } }
	return { model: MODEL, messages: [{ role: 'user' as const, content: 'Hi' }], tools: [{ type: 'function' as const, function: { name: 'deep', parameters: schema } }] }
}

/** Nests `value` inside `levels` more arrays. */
const inArrays = (levels: number, value: string) => '['.repeat(levels) + value + ']'.repeat(levels)

for (const target of databaseTargets()) {
	describe(`request bodies nested deeply on ${target.dialect}`, () => {
		let harness: RelayHarness
		let upstream: FakeOpenAI
		let key: string
		let user: Caller
		beforeAll(async () => {
			harness = await startRelayHarness(target)
			upstream = harness.startUpstream()
			await harness.createChannel({ base_url: upstream.url, models: MODEL })
			user = await harness.ferry.createUser('deep')
			await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: user.userId, quota: 10_000_000 } })
			key = (await harness.createToken({}, user)).key
		})
		afterAll(() => harness.close())

		const post = (path: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
			fetch(`${harness.baseUrl}${path}`, { method: 'POST', headers, body })

		test('a chat request with a tool schema as deeply nested as allowed reaches the upstream intact', async () => {
			const request = chatWithToolDepth(MAX_JSON_DEPTH)
			const answer = await new OpenAI({ apiKey: key, baseURL: `${harness.baseUrl}/v1`, maxRetries: 0 }).chat.completions.create(request)
			expect(answer.choices[0]?.message.content).toBeString()
			expect(upstream.requests.at(-1)!.body.tools).toEqual(request.tools)
		})

		test('one level deeper, each client format answers 400 in its own shape and nothing goes upstream', async () => {
			const before = upstream.requests.length
			const tooDeep = JSON.stringify(chatWithToolDepth(MAX_JSON_DEPTH + 1))
			const auth = { 'content-type': 'application/json', authorization: `Bearer ${key}` }
			const openAI = await post('/v1/chat/completions', tooDeep, auth)
			expect(openAI.status).toBe(400)
			expect(await openAI.json()).toMatchObject({ error: { message: MESSAGES.jsonTooDeep, type: 'invalid_request_error' } })
			for (const path of ['/v1/messages', '/v1/messages/count_tokens']) {
				const claude = await post(path, tooDeep, { 'content-type': 'application/json', 'x-api-key': key })
				expect(claude.status).toBe(400)
				expect(await claude.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: MESSAGES.jsonTooDeep } })
			}
			const gemini = await post(`/v1beta/models/${MODEL}:generateContent`, `{"contents":${inArrays(MAX_JSON_DEPTH, '{}')}}`, { 'content-type': 'application/json', 'x-goog-api-key': key })
			expect(gemini.status).toBe(400)
			expect(await gemini.json()).toEqual({ error: { code: 400, message: MESSAGES.jsonTooDeep, status: 'INVALID_ARGUMENT' } })
			const playground = await post('/pg/chat/completions', tooDeep, { 'content-type': 'application/json', cookie: user.cookie!, 'new-api-user': String(user.userId) })
			expect(playground.status).toBe(400)
			expect(await playground.json()).toMatchObject({ error: { message: MESSAGES.jsonTooDeep } })
			expect(upstream.requests.length).toBe(before)
		})

		test('/api answers a body nested too deeply with a 400 in the envelope, public or signed in, with or without a content type', async () => {
			const tooDeep = `{"username":${inArrays(MAX_JSON_DEPTH, '"x"')},"password":"x"}`
			for (const headers of [{ 'content-type': 'application/json' }, {}] as Record<string, string>[]) {
				const login = await post('/api/user/login', tooDeep, headers)
				expect(login.status).toBe(400)
				expect(await login.json()).toEqual({ success: false, message: MESSAGES.jsonTooDeep })
			}
			const self = await fetch(`${harness.baseUrl}/api/user/self`, {
				method: 'PUT', headers: { 'content-type': 'application/json', cookie: user.cookie!, 'new-api-user': String(user.userId) }, body: `{"display_name":${inArrays(MAX_JSON_DEPTH, '"x"')}}`,
			})
			expect(self.status).toBe(400)
			expect(await self.json()).toEqual({ success: false, message: MESSAGES.jsonTooDeep })
		})

		test('/api reads a body as deep as allowed and judges it by its schema', async () => {
			const login = await post('/api/user/login', `{"username":${inArrays(MAX_JSON_DEPTH - 1, '"x"')},"password":"x"}`)
			expect(login.status).toBe(400)
			const answer = await login.json() as { success: boolean; message: string }
			expect(answer.success).toBe(false)
			expect(answer.message).not.toBe(MESSAGES.jsonTooDeep)
		})
	})
}
