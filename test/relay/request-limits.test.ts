/**
 * Request rate limits per user (issue 17 item 5, new-api's ModelRequestRateLimit*): over a limit a
 * call is answered 429 with the "too many requests" message in the caller's format; the
 * success count counts only answered calls; a group's own limits replace the general ones; a
 * malformed group setting is refused when saved. `/mj` and `/suno` submits (paid upstream calls)
 * and the free token counts are counted like any call (issue 26 item 7). (Across nodes:
 * test/e2e/multi-node.test.ts.)
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import OpenAI from 'openai'
import { MESSAGES } from '@shared/api'
import { databaseTargets } from '../helpers/database'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'
import { startTaskHarness, type TaskHarness } from '../helpers/task-relay'

const MODEL = 'gpt-4o-mini'

describe('request rate limits', () => {
	let harness: RelayHarness

	beforeEach(async () => {
		harness = await startRelayHarness(databaseTargets()[0]!)
		const upstream = harness.startUpstream()
		await harness.createChannel({ base_url: upstream.url, models: MODEL, group: 'default,vip' })
	})
	afterEach(() => harness.close())

	const setOptions = async (values: Record<string, string>) => {
		for (const [key, value] of Object.entries(values)) {
			const answer = await harness.ferry.call('PUT', '/api/option/', { as: harness.root, body: { key, value } })
			if (!answer.body.success) throw new Error(`setting ${key} failed: ${answer.body.message}`)
		}
	}
	const chat = (client: OpenAI, content = 'Hi') => client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content }] })
		.then(() => 200, (error: InstanceType<typeof OpenAI.APIError>) => error.status ?? 0)

	test('the console\'s playground words the same refusal in the console\'s language; API clients read it in English', async () => {
		await setOptions({ ModelRequestRateLimitEnabled: 'true', ModelRequestRateLimitCount: '1', ModelRequestRateLimitDurationMinutes: '2' })
		const playground = () => fetch(`${harness.baseUrl}/pg/chat/completions`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', cookie: harness.root.cookie!, 'new-api-user': String(harness.root.userId), 'accept-language': 'zh-CN' },
			body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }),
		})
		expect((await playground()).status).toBe(200)
		const refused = await playground()
		expect(refused.status).toBe(429)
		expect(((await refused.json()) as { error: { message: string } }).error.message).toBe('请求次数过多，请稍后再试（2 分钟内最多 1 次请求）')
		const { key } = await harness.createToken()
		const relayed = await harness.client(key).chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }).catch((error) => error)
		expect(relayed.error.message).toBe('too many requests, try later (at most 1 request in 2 minutes)')
	})

	test('past the total limit a call is refused with 429 and the catalogue message, in the OpenAI, Claude and Gemini shapes', async () => {
		await setOptions({ ModelRequestRateLimitEnabled: 'true', ModelRequestRateLimitCount: '2', ModelRequestRateLimitDurationMinutes: '1' })
		const { key } = await harness.createToken()
		const openai = harness.client(key)
		expect([await chat(openai), await chat(openai)]).toEqual([200, 200])

		const refused = await openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }).catch((error) => error)
		expect(refused).toBeInstanceOf(OpenAI.RateLimitError)
		expect(refused.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' })
		expect(refused.error.message).toStartWith(MESSAGES.tooManyRequests)

		const claude = await new Anthropic({ apiKey: key, baseURL: harness.baseUrl, maxRetries: 0 }).messages
			.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] }).catch((error) => error)
		expect(claude).toBeInstanceOf(Anthropic.RateLimitError)
		expect(claude.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } })
		expect(claude.error.error.message).toStartWith(MESSAGES.tooManyRequests)

		const gemini = await new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: harness.baseUrl } }).models
			.generateContent({ model: MODEL, contents: 'Hi' }).catch((error) => error)
		expect(gemini.status).toBe(429)
		const body = JSON.parse(gemini.message)
		expect(body.error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' })
		expect(body.error.message).toStartWith(MESSAGES.tooManyRequests)
	})

	test('the success limit counts only answered calls: failed ones do not use it up', async () => {
		await setOptions({ ModelRequestRateLimitEnabled: 'true', ModelRequestRateLimitCount: '0', ModelRequestRateLimitSuccessCount: '2' })
		const client = harness.client((await harness.createToken()).key)
		const failed = [await chat(client, 'Hi [fake-fault:status=500]'), await chat(client, 'Hi [fake-fault:status=500]'), await chat(client, 'Hi [fake-fault:status=500]')]
		expect(failed).toEqual([500, 500, 500])
		expect([await chat(client), await chat(client), await chat(client)]).toEqual([200, 200, 429])
	})

	test('a group\'s own limits replace the general ones, for the token\'s group, else the user\'s', async () => {
		await setOptions({
			ModelRequestRateLimitEnabled: 'true', ModelRequestRateLimitCount: '3', ModelRequestRateLimitSuccessCount: '0',
			ModelRequestRateLimitGroup: JSON.stringify({ vip: [1, 0] }),
		})
		const vip = harness.client((await harness.createToken({ name: 'vip', group: 'vip' })).key)
		const plain = harness.client((await harness.createToken({ name: 'plain' })).key)
		expect([await chat(vip), await chat(vip)]).toEqual([200, 429])
		// The same user's counter, under the user's own group (default) and its general limit of 3.
		expect([await chat(plain), await chat(plain)]).toEqual([200, 429])
	})

	test('with the limits off, calls are not counted', async () => {
		await setOptions({ ModelRequestRateLimitCount: '1' })
		const client = harness.client((await harness.createToken()).key)
		expect([await chat(client), await chat(client), await chat(client)]).toEqual([200, 200, 200])
	})

	test('a group setting that is not {group: [total, success]} is refused when saved, saying what it must be', async () => {
		const save = (value: string) => harness.ferry.call('PUT', '/api/option/', { as: harness.root, body: { key: 'ModelRequestRateLimitGroup', value } })
		const notJson = await save('{vip: [1, 2]')
		expect(notJson.body).toMatchObject({ success: false, message: 'ModelRequestRateLimitGroup is not a valid JSON string' })
		const wrongShape = await save(JSON.stringify({ vip: [10, -1] }))
		expect(wrongShape.body.success).toBe(false)
		expect(wrongShape.body.message).toContain('must map each group to [total requests, successful requests]')
		expect(wrongShape.body.message).toContain('the group "vip" does not')
		expect((await save(JSON.stringify({ vip: 5 }))).body.success).toBe(false)
		expect((await save(JSON.stringify({ vip: [100, 80], default: [0, 1000] }))).body.success).toBe(true)
	})
})

/** What a 429 of the request limits says, in any shape. */
const tooManyRequests = expect.stringContaining('too many requests, try later (at most 2 requests in 1 minute)')

for (const target of databaseTargets()) {
	describe(`request rate limits beyond chat on ${target.dialect}`, () => {
		let tasks: TaskHarness
		beforeEach(async () => {
			tasks = await startTaskHarness(target)
			const upstream = tasks.harness.startUpstream()
			await tasks.harness.createChannel({ base_url: upstream.url, models: MODEL })
			const { options } = tasks.harness.ferry.dependencies
			await options.set('ModelRequestRateLimitEnabled', 'true')
			await options.set('ModelRequestRateLimitCount', '2')
			await options.set('ModelRequestRateLimitDurationMinutes', '1')
		})
		afterEach(() => tasks.close())

		test('/mj and /suno submits count toward the limit; past it a submit is a 429 in its client\'s shape, with nothing held or sent upstream', async () => {
			const { alice } = tasks
			expect((await tasks.call('POST', '/mj/submit/imagine', { key: alice.key, body: { prompt: 'a lighthouse' } })).status).toBe(200)
			expect((await tasks.call('POST', '/suno/submit/music', { key: alice.key, body: { prompt: 'a sea shanty' } })).status).toBe(200)
			const account = await tasks.account(alice)
			const sent = tasks.midjourney.requests.length + tasks.suno.requests.length
			const drawing = await tasks.call('POST', '/mj/submit/imagine', { key: alice.key, body: { prompt: 'another lighthouse' } })
			expect(drawing).toMatchObject({ status: 429, body: { result: null, description: tooManyRequests } })
			const fast = await tasks.call('POST', '/fast/mj/submit/imagine', { key: alice.key, body: { prompt: 'fast' } })
			expect(fast.status).toBe(429)
			const music = await tasks.call('POST', '/suno/submit/lyrics', { key: alice.key, body: { prompt: 'another shanty' } })
			expect(music).toMatchObject({ status: 429, body: { code: 'rate_limit_exceeded', message: tooManyRequests, data: null } })
			expect(tasks.midjourney.requests.length + tasks.suno.requests.length).toBe(sent)
			expect(await tasks.account(alice)).toEqual(account)
			// The same counter as relayed calls: the user's chat is refused too, and another user's is not.
			const chat = await tasks.harness.client(alice.key).chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }).catch((error) => error)
			expect(chat.status).toBe(429)
			expect((await tasks.call('POST', '/mj/submit/imagine', { key: tasks.bob.key, body: { prompt: 'bob\'s' } })).status).toBe(200)
		})

		test('reading one\'s tasks is not counted', async () => {
			const { alice } = tasks
			const drawing = (await tasks.call('POST', '/mj/submit/imagine', { key: alice.key, body: { prompt: 'a lighthouse' } })).body.result
			for (let read = 0; read < 3; read++) expect((await tasks.call('GET', `/mj/task/${drawing}/fetch`, { key: alice.key })).status).toBe(200)
			expect((await tasks.call('POST', '/suno/submit/music', { key: alice.key, body: { prompt: 'a sea shanty' } })).status).toBe(200)
		})

		test('count_tokens and the Responses input_tokens count toward the limit; past it they are a 429 in Claude\'s and OpenAI\'s shapes', async () => {
			const { alice } = tasks
			const claude = new Anthropic({ apiKey: alice.key, baseURL: tasks.harness.baseUrl, maxRetries: 0 })
			const count = () => claude.messages.countTokens({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] })
			expect((await count()).input_tokens).toBeGreaterThan(0)
			const openai = tasks.harness.client(alice.key)
			expect((await openai.responses.inputTokens.count({ model: MODEL, input: 'Hi' })).input_tokens).toBeGreaterThan(0)
			const refused = await count().catch((error) => error)
			expect(refused).toBeInstanceOf(Anthropic.RateLimitError)
			expect(refused.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error', message: tooManyRequests } })
			const refusedInput = await openai.responses.inputTokens.count({ model: MODEL, input: 'Hi' }).catch((error) => error)
			expect(refusedInput).toBeInstanceOf(OpenAI.RateLimitError)
			expect(refusedInput.error).toMatchObject({ code: 'rate_limit_exceeded', message: tooManyRequests })
		})
	})
}
