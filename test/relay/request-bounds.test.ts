/**
 * Relay requests the fuzz test (test/api/fuzz.test.ts) found answered with a 500: Gemini bodies
 * whose contents, parts or tools are not lists of objects, and token limits too large to hold for.
 * Each is a 400 in the client's format, before any hold or upstream call. And those a sweep of odd
 * values on Postgres found: ids with a NUL (which Postgres refuses in a statement) or a lone
 * surrogate, and model names in the path that are not percent-encoded UTF-8.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { MAX_TOKEN_LIMIT } from '@/relay/formats/openai/requests'
import { databaseTargets } from '../helpers/database'
import type { FakeOpenAI } from '../helpers/fake-openai'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const MODEL = 'gpt-4o-mini'

for (const target of databaseTargets()) {
	describe(`relay request bounds on ${target.dialect}`, () => {
		let harness: RelayHarness
		let upstream: FakeOpenAI
		let key: string
		beforeAll(async () => {
			harness = await startRelayHarness(target)
			upstream = harness.startUpstream()
			await harness.createChannel({ base_url: upstream.url, models: MODEL })
			key = (await harness.createToken()).key
		})
		afterAll(() => harness.close())

		const post = (path: string, body: unknown) => fetch(`${harness.baseUrl}${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-api-key': key, 'x-goog-api-key': key },
			body: JSON.stringify(body),
		})

		test('Gemini contents, parts, tools and embedding requests that are not lists of objects are a 400 in Gemini\'s shape', async () => {
			const part = { text: 'Hi' }
			for (const [method, body] of [
				['generateContent', { contents: [null] }],
				['generateContent', { contents: [{ role: 'user', parts: [null] }] }],
				['generateContent', { contents: [{ role: 'user', parts: 'Hi' }] }],
				['streamGenerateContent', { contents: ['Hi', 5] }],
				['generateContent', { contents: [{ parts: [part] }], systemInstruction: { parts: [null] } }],
				['generateContent', { contents: [{ parts: [part] }], tools: [null] }],
				['generateContent', { contents: [{ parts: [part] }], tools: [{ functionDeclarations: [7] }] }],
				['embedContent', { content: { parts: [null] } }],
				['batchEmbedContents', { requests: [null] }],
				['batchEmbedContents', { requests: [{ content: 'Hi' }] }],
			] as const) {
				const response = await post(`/v1beta/models/${MODEL}:${method}`, body)
				expect(response.status).toBe(400)
				expect(await response.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('expected') } })
			}
			expect(upstream.requests).toHaveLength(0)
		})

		test('a token limit above the bound is a 400 in each client format, with nothing held or sent upstream', async () => {
			const tooMany = 1e308
			const chat = { model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }
			for (const [path, body, shape] of [
				['/v1/chat/completions', { ...chat, max_tokens: tooMany }, { error: { type: 'invalid_request_error' } }],
				['/v1/chat/completions', { ...chat, max_completion_tokens: MAX_TOKEN_LIMIT + 1 }, { error: { type: 'invalid_request_error' } }],
				['/v1/completions', { model: MODEL, prompt: 'Hi', max_tokens: tooMany }, { error: { type: 'invalid_request_error' } }],
				['/v1/messages', { ...chat, max_tokens: tooMany }, { type: 'error', error: { type: 'invalid_request_error' } }],
				[`/v1beta/models/${MODEL}:generateContent`, { contents: [{ parts: [{ text: 'Hi' }] }], generationConfig: { maxOutputTokens: tooMany } }, { error: { code: 400 } }],
			] as const) {
				const response = await post(path, body)
				expect(response.status).toBe(400)
				expect(await response.json()).toMatchObject(shape)
			}
			expect(upstream.requests).toHaveLength(0)
			expect(await harness.ferry.store.db.select().from(harness.ferry.store.tables.quotaHolds)).toEqual([])
		})

		const send = (method: string, path: string, body?: unknown) => fetch(`${harness.baseUrl}${path}`, {
			method,
			headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'mj-api-secret': key },
			body: body === undefined ? undefined : JSON.stringify(body),
		})

		test('an id no stored id can be (with a NUL, or a lone surrogate) is not found, in each client\'s shape, on both databases', async () => {
			const nul = 'a\u0000b'
			for (const [method, path, body, status, shape] of [
				['GET', '/mj/task/a%00b/fetch', undefined, 404, { code: 4 }],
				['GET', '/mj/task/%00/image-seed', undefined, 404, { code: 4 }],
				['POST', '/mj/submit/change', { taskId: nul, action: 'UPSCALE', index: 1 }, 404, { code: 4 }],
				['POST', '/mj/task/list-by-condition', { ids: [nul, '\ud800'] }, 200, []],
				['GET', '/suno/fetch/a%00b', undefined, 404, { code: 'task_not_found' }],
				['POST', '/suno/fetch', { ids: [nul, 'x\udc00'] }, 200, { code: 'success', data: [] }],
				['GET', '/v1/videos/a%00b', undefined, 404, { error: { code: 'not_found' } }],
				['DELETE', '/v1/videos/a%00b', undefined, 404, { error: { code: 'not_found' } }],
				['GET', '/v1/videos?after=a%00b', undefined, 400, { error: { type: 'invalid_request_error' } }],
				['GET', '/kling/v1/videos/text2video/a%00b', undefined, 404, { code: 1203 }],
				['GET', '/v1/responses/a%00b', undefined, 404, { error: { code: 'response_not_found' } }],
				['POST', '/v1/responses/%00/cancel', undefined, 404, { error: { code: 'response_not_found' } }],
				['POST', '/v1/responses', { model: MODEL, input: 'Hi', previous_response_id: `resp_${nul}` }, 400, { error: { type: 'invalid_request_error' } }],
			] as const) {
				const response = await send(method, path, body)
				expect([path, response.status]).toEqual([path, status])
				expect(await response.json()).toMatchObject(shape)
			}
			expect(upstream.requests).toHaveLength(0)
		})

		test('a model name in the path that is not percent-encoded UTF-8 is a 400 in Gemini\'s shape, and a path Elysia decoded is not decoded again', async () => {
			const gemini = (method: string, path: string) => fetch(`${harness.baseUrl}${path}`, {
				method, headers: { 'content-type': 'application/json', 'x-goog-api-key': key }, body: method === 'POST' ? JSON.stringify({ contents: [{ parts: [{ text: 'Hi' }] }] }) : undefined,
			})
			for (const [method, path] of [['POST', '/v1beta/models/%FF:generateContent'], ['POST', '/v1beta/models/%ED%A0%80:streamGenerateContent'], ['GET', '/v1beta/models/%C0%80']] as const) {
				const response = await gemini(method, path)
				expect(response.status).toBe(400)
				expect(await response.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT', message: 'the model name in the path is not valid percent-encoded UTF-8' } })
			}
			// `%25FF` is the text `%FF`, a model nobody serves, whichever format lists it.
			const listed = await send('GET', '/v1/models/%25FF')
			expect(listed.status).toBe(404)
			expect(await listed.json()).toMatchObject({ error: { code: 'model_not_found', message: expect.stringContaining('the model %FF ') } })
			expect((await gemini('GET', '/v1/models/%25FF')).status).toBe(404)
			const kept = await send('GET', '/v1/responses/resp_a%2500b')
			expect(kept.status).toBe(404)
			expect(await kept.json()).toMatchObject({ error: { message: 'Response with id \'resp_a%00b\' not found.' } })
			expect(upstream.requests).toHaveLength(0)
		})

		test('a token limit at the bound passes the check and is held for, so a caller without that much quota is refused for quota', async () => {
			const response = await post('/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'Hi' }], max_tokens: MAX_TOKEN_LIMIT })
			expect(response.status).toBe(403)
			expect(await response.json()).toMatchObject({ error: { code: 'insufficient_user_quota' } })
		})
	})
}
