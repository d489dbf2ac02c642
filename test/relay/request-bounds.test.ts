/**
 * Relay requests the fuzz test (test/api/fuzz.test.ts) found answered with a 500: Gemini bodies
 * whose contents, parts or tools are not lists of objects, and token limits too large to hold for.
 * Each is a 400 in the client's format, before any hold or upstream call.
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

		test('a token limit at the bound passes the check and is held for, so a caller without that much quota is refused for quota', async () => {
			const response = await post('/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'Hi' }], max_tokens: MAX_TOKEN_LIMIT })
			expect(response.status).toBe(403)
			expect(await response.json()).toMatchObject({ error: { code: 'insufficient_user_quota' } })
		})
	})
}
