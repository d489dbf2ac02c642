/**
 * Call limits at every level (issue 28 item 4): requests a minute, tokens a minute (counting the
 * tokens calls were billed for, never estimates), requests a day and calls at once, on a token, a
 * user, a group (`GroupRateLimits`) and a model (`ModelRateLimits`). The most specific setting of
 * a subject applies, every applicable limit must pass, and a refusal is a 429 with `Retry-After`
 * in the caller's format (OpenAI, Claude, Gemini). Bad values are refused in the console's
 * language. (Across nodes through Redis: test/e2e/multi-node.test.ts.)
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import OpenAI from 'openai'
import { renderMessage } from '@shared/messages'
import { RATE_LIMIT_MESSAGES } from '@shared/rate-limit'
import type { Caller } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const MODEL = 'gpt-4o-mini'

describe('call limits', () => {
	let harness: RelayHarness

	beforeEach(async () => {
		harness = await startRelayHarness(databaseTargets()[0]!)
		const upstream = harness.startUpstream({ promptTokens: 10, completionTokens: 5 })
		await harness.createChannel({ base_url: upstream.url, models: `${MODEL},other-model`, group: 'default,vip' })
		const ratios = harness.ferry.dependencies.options.get('ModelRatio')
		await harness.ferry.dependencies.options.set('ModelRatio', JSON.stringify({ ...ratios, 'other-model': 1, 'slow-model': 1 }))
	})
	afterEach(() => harness.close())

	const setOption = async (key: string, value: string) => {
		const answer = await harness.ferry.call('PUT', '/api/option/', { as: harness.root, body: { key, value } })
		if (!answer.body.success) throw new Error(`setting ${key} failed: ${answer.body.message}`)
	}
	const openai = (key: string, model = MODEL) => fetch(`${harness.baseUrl}/v1/chat/completions`, {
		method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hi' }] }),
	})
	const claude = (key: string) => fetch(`${harness.baseUrl}/v1/messages`, {
		method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
		body: JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] }),
	})
	const gemini = (key: string) => fetch(`${harness.baseUrl}/v1beta/models/${MODEL}:generateContent`, {
		method: 'POST', headers: { 'x-goog-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] }),
	})
	const statuses = async (calls: number, send: () => Promise<Response>) => {
		const found: number[] = []
		for (let index = 0; index < calls; index++) found.push((await send()).status)
		return found
	}
	const retryAfter = (response: Response) => Number(response.headers.get('retry-after'))

	test('a token with rpm_limit 3 answers the 4th call of a minute with 429 and Retry-After, in the OpenAI, Claude and Gemini shapes', async () => {
		const token = async () => (await harness.createToken({ name: 'limited', rpm_limit: 3 })).key
		const forOpenAI = await token()
		expect(await statuses(3, () => openai(forOpenAI))).toEqual([200, 200, 200])
		const refused = await openai(forOpenAI)
		expect(refused.status).toBe(429)
		expect(retryAfter(refused)).toBeGreaterThanOrEqual(1)
		expect(retryAfter(refused)).toBeLessThanOrEqual(60)
		expect(await refused.json()).toMatchObject({ error: { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: expect.stringContaining('this API token allows at most 3 requests a minute') } })

		const forClaude = await token()
		expect(await statuses(3, () => claude(forClaude))).toEqual([200, 200, 200])
		const claudeRefused = await claude(forClaude)
		expect(claudeRefused.status).toBe(429)
		expect(retryAfter(claudeRefused)).toBeGreaterThanOrEqual(1)
		expect(await claudeRefused.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } })

		const forGemini = await token()
		expect(await statuses(3, () => gemini(forGemini))).toEqual([200, 200, 200])
		const geminiRefused = await gemini(forGemini)
		expect(geminiRefused.status).toBe(429)
		expect(retryAfter(geminiRefused)).toBeGreaterThanOrEqual(1)
		expect(await geminiRefused.json()).toMatchObject({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } })

		// And the official SDKs read them as rate-limit errors.
		const sdkOpenAI = await new OpenAI({ apiKey: forOpenAI, baseURL: `${harness.baseUrl}/v1`, maxRetries: 0 }).chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }).catch((error) => error)
		expect(sdkOpenAI).toBeInstanceOf(OpenAI.RateLimitError)
		const sdkClaude = await new Anthropic({ apiKey: forClaude, baseURL: harness.baseUrl, maxRetries: 0 }).messages.create({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] }).catch((error) => error)
		expect(sdkClaude).toBeInstanceOf(Anthropic.RateLimitError)
		const sdkGemini = await new GoogleGenAI({ apiKey: forGemini, httpOptions: { baseUrl: harness.baseUrl } }).models.generateContent({ model: MODEL, contents: 'Hi' }).catch((error) => error)
		expect(sdkGemini.status).toBe(429)
	})

	test('tokens a minute count the tokens calls were billed for, not estimates', async () => {
		// Each call is billed 15 tokens; one asking for a million output tokens is held for them but still counts 15.
		const { key } = await harness.createToken({ name: 'tpm', tpm_limit: 40 })
		const big = () => fetch(`${harness.baseUrl}/v1/chat/completions`, {
			method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
			body: JSON.stringify({ model: MODEL, max_tokens: 1_000_000, messages: [{ role: 'user', content: 'Hi' }] }),
		})
		expect(await statuses(3, big)).toEqual([200, 200, 200])
		const refused = await openai(key)
		expect(refused.status).toBe(429)
		expect(retryAfter(refused)).toBeGreaterThanOrEqual(1)
		expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('at most 40 tokens a minute')
	})

	test('a user\'s own limit counts all their tokens, and their group\'s applies where they set none', async () => {
		const alice = await harness.ferry.createUser('alice')
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: alice.userId, quota: 1_000_000, rpd_limit: 2 } })
		const first = (await harness.createToken({ name: 'one' }, alice)).key
		const second = (await harness.createToken({ name: 'two' }, alice)).key
		expect([(await openai(first)).status, (await openai(second)).status]).toEqual([200, 200])
		const refused = await openai(first)
		expect(refused.status).toBe(429)
		expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('this user allows at most 2 requests a day')
		// Up to a day to wait.
		expect(retryAfter(refused)).toBeGreaterThan(60)

		await setOption('GroupRateLimits', JSON.stringify({ vip: { rpm: 1 }, default: { rpm: 2 } }))
		const bob = await harness.ferry.createUser('bob')
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: bob.userId, quota: 1_000_000, group: 'vip' } })
		const bobKey = (await harness.createToken({ name: 'bob' }, bob)).key
		expect(await statuses(2, () => openai(bobKey))).toEqual([200, 429])
		// His own limit is more specific than his group's.
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: bob.userId, rpm_limit: 5 } })
		expect(await statuses(3, () => openai(bobKey))).toEqual([200, 200, 200])
	})

	test('every applicable limit must pass: a model\'s limit holds under a looser token limit', async () => {
		await setOption('ModelRateLimits', JSON.stringify({ [MODEL]: { rpm: 2 } }))
		const { key } = await harness.createToken({ name: 'loose', rpm_limit: 100 })
		expect(await statuses(3, () => openai(key))).toEqual([200, 200, 429])
		const refused = await openai(key)
		expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(`the model ${MODEL} allows at most 2 requests a minute`)
		// Another model is not limited.
		expect((await openai(key, 'other-model')).status).toBe(200)
		const strict = (await harness.createToken({ name: 'strict', rpm_limit: 1 })).key
		expect(await statuses(2, () => openai(strict, 'other-model'))).toEqual([200, 429])
	})

	test('calls at once are limited for a user across their tokens, and a call that ends frees its place', async () => {
		const slow = harness.startUpstream({ fault: { name: 'slow-chunks', delayMs: 300 } })
		await harness.createChannel({ type: 1, name: 'slow', base_url: slow.url, models: 'slow-model' })
		const carol = await harness.ferry.createUser('carol')
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: carol.userId, quota: 1_000_000, concurrency_limit: 1 } })
		const first = (await harness.createToken({ name: 'one' }, carol)).key
		const second = (await harness.createToken({ name: 'two' }, carol)).key
		const stream = await harness.client(first).chat.completions.create({ model: 'slow-model', stream: true, messages: [{ role: 'user', content: 'take your time' }] })
		const refused = await openai(second, 'slow-model')
		expect(refused.status).toBe(429)
		expect(await refused.json()).toMatchObject({ error: { type: 'rate_limit_error', code: 'concurrency_limit_exceeded', message: 'this user allows at most 1 request at once' } })
		for await (const _chunk of stream) { /* read to the end */ }
		expect((await openai(second, 'slow-model')).status).toBe(200)
	})

	test('the playground words a limit\'s refusal in the console\'s language', async () => {
		await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: harness.root.userId, rpm_limit: 1 } })
		const playground = () => fetch(`${harness.baseUrl}/pg/chat/completions`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', cookie: harness.root.cookie!, 'new-api-user': String(harness.root.userId), 'accept-language': 'zh-CN' },
			body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }),
		})
		expect((await playground()).status).toBe(200)
		const refused = await playground()
		expect(refused.status).toBe(429)
		expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
		expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/^此用户每分钟最多 1 次请求，请 \d+ 秒后再试$/)
	})

	test('limits refuse negative or fractional values, in the console\'s language', async () => {
		const asZh = (as: Caller, method: string, path: string, body: unknown) => harness.ferry.call(method, path, { as, body, headers: { 'accept-language': 'zh-CN' } })
		const token = await asZh(harness.root, 'POST', '/api/token/', { name: 'bad', rpm_limit: -1 })
		expect(token.body.message).toContain(renderMessage('zh', RATE_LIMIT_MESSAGES.rpmInvalid))
		const user = await asZh(harness.root, 'PUT', '/api/user/', { id: harness.root.userId, tpm_limit: 1.5 })
		expect(user.body.message).toContain(renderMessage('zh', RATE_LIMIT_MESSAGES.tpmInvalid))
		const group = await asZh(harness.root, 'PUT', '/api/option/', { key: 'GroupRateLimits', value: '{"vip": {"rpm": -3}}' })
		expect(group.body.success).toBe(false)
		expect(group.body.message).toContain('“vip”不符合')
		const model = await asZh(harness.root, 'PUT', '/api/option/', { key: 'ModelRateLimits', value: '{"m": {"rpn": 3}}' })
		expect(model.body.success).toBe(false)
	})
})
