/**
 * Nothing one client sends holds the server for the others (issue 12, findings 1 and 2): while a
 * client keeps sending a costly body, another client's `GET /api/status`, timed from a thread of
 * its own, still answers within the bound of 300 ms (the median of the probes, as the
 * machines running the suite are shared and noisy).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { MAX_JSON_DEPTH, MESSAGES } from '@shared/api'
import { testConfig } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'
import { multipartBody } from '../helpers/multipart'
import { attackFromWorker, median, probeWhile } from '../helpers/stall-probe'

const STATUS_BOUND_MS = 300
const COUNT_TOKENS_BOUND_MS = 2_000
/** 80 KB of `[[[…]]]`, the finding's body. */
const NESTED_ARRAYS = '['.repeat(40_000) + ']'.repeat(40_000)
const RUN_LENGTH = 200_000
/** o200k reads a run of capital A as tokens of eight letters; a Claude prompt adds 6 framing tokens. */
const RUN_TOKENS = RUN_LENGTH / 8 + 6
/** Issue 26's multipart findings: a field of 40 000 levels of `[[…]]`, and one name in 40 000 parts. */
const DEEP_FIELD = multipartBody([['username', NESTED_ARRAYS], ['password', 'password123']])
const REPEATED_FIELD = multipartBody(Array.from({ length: 40_000 }, () => ['x', 'y'] as const))

for (const target of databaseTargets()) {
	describe(`the server under a costly body on ${target.dialect}`, () => {
		let harness: RelayHarness
		let keyWithoutQuota: string
		let keyWithQuota: string
		beforeAll(async () => {
			// The default body limit (MAX_BODY_MB), as the attacks would meet it in production.
			harness = await startRelayHarness(target, { config: { ...testConfig, maxBodyBytes: 32 * 1024 * 1024 } })
			const nobody = await harness.ferry.createUser('nobody')
			keyWithoutQuota = (await harness.createToken({}, nobody)).key
			const payer = await harness.ferry.createUser('payer')
			await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: payer.userId, quota: 50_000_000 } })
			keyWithQuota = (await harness.createToken({}, payer)).key
		})
		afterAll(() => harness.close())

		const post = (path: string, body: string, headers: Record<string, string> = {}) =>
			fetch(`${harness.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })
		const postForm = (path: string, form: { text: string; contentType: string }, headers: Record<string, string> = {}) =>
			post(path, form.text, { ...headers, 'content-type': form.contentType })
		/** The probes' median and worst both within the bound. */
		const expectNoStall = (latencies: number[]) => {
			expect(median(latencies)).toBeLessThan(STATUS_BOUND_MS)
			expect(Math.max(...latencies)).toBeLessThan(STATUS_BOUND_MS)
		}

		test('a multipart login whose username nests 40 000 levels of [[…]] is a 400, and no probe of /api/status waits 300 ms meanwhile', async () => {
			const { attacks, latencies } = await probeWhile(harness.baseUrl, () => postForm('/api/user/login', DEEP_FIELD))
			for (const attack of attacks) expect(attack).toMatchObject({ status: 400, body: { success: false } })
			expectNoStall(latencies)
		})

		test('a multipart login repeating one field 40 000 times is a 400, and no probe waits 300 ms meanwhile', async () => {
			const { attacks, latencies } = await probeWhile(harness.baseUrl, () => postForm('/api/user/login', REPEATED_FIELD))
			for (const attack of attacks) expect(attack).toMatchObject({ status: 400, body: { success: false, message: MESSAGES.tooManyFields } })
			expectNoStall(latencies)
		})

		test('a urlencoded login repeating one field 40 000 times is a 400, and no probe waits 300 ms meanwhile', async () => {
			const form = new URLSearchParams(Array.from({ length: 40_000 }, () => ['x', NESTED_ARRAYS.slice(0, 20)])).toString()
			const { attacks, latencies } = await probeWhile(harness.baseUrl, () => post('/api/user/login', form, { 'content-type': 'application/x-www-form-urlencoded' }))
			for (const attack of attacks) expect(attack).toMatchObject({ status: 400, body: { success: false, message: MESSAGES.tooManyFields } })
			expectNoStall(latencies)
		})

		test('an upload repeating one field 40 000 times, from a token without quota, is refused before it is parsed, and no probe waits 300 ms meanwhile', async () => {
			const { attacks, latencies } = await probeWhile(harness.baseUrl, () => postForm('/v1/audio/transcriptions', REPEATED_FIELD, { authorization: `Bearer ${keyWithoutQuota}` }))
			for (const attack of attacks) expect(attack).toMatchObject({ status: 403, body: { error: { code: 'insufficient_user_quota' } } })
			expectNoStall(latencies)
		})

		test('an upload repeating one field 40 000 times, from a token with quota, is a 400, and no probe waits 300 ms meanwhile', async () => {
			const { attacks, latencies } = await probeWhile(harness.baseUrl, () => postForm('/v1/audio/transcriptions', REPEATED_FIELD, { authorization: `Bearer ${keyWithQuota}` }))
			for (const attack of attacks) expect(attack).toMatchObject({ status: 400, body: { error: { message: MESSAGES.tooManyFields } } })
			expectNoStall(latencies)
		})

		/** 20 MB of prose in one Claude message (4.5 million tokens). */
		const LARGE_PROMPT = new TextEncoder().encode(JSON.stringify({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'A ferry crosses the river. '.repeat(750_000) }] }))

		test('four 20 MB count_tokens calls at once from a token without quota are refused before they are parsed, and no probe waits 300 ms meanwhile', async () => {
			// Sent from a thread of its own: sending 80 MB costs the sender, which here shares Ferry's thread.
			const attacker = attackFromWorker({ url: `${harness.baseUrl}/v1/messages/count_tokens`, method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': keyWithoutQuota }, body: LARGE_PROMPT, copies: 4 })
			const { attacks, latencies } = await probeWhile(harness.baseUrl, attacker.attack).finally(attacker.stop)
			for (const attack of attacks) expect(attack).toMatchObject({ status: 403, body: { type: 'error', error: { type: 'permission_error' } } })
			expectNoStall(latencies)
		})

		test('four 20 MB count_tokens calls at once from a token with quota are counted, and no probe waits 300 ms meanwhile', async () => {
			const attacker = attackFromWorker({ url: `${harness.baseUrl}/v1/messages/count_tokens`, method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': keyWithQuota }, body: LARGE_PROMPT, copies: 4 })
			const { attacks, latencies } = await probeWhile(harness.baseUrl, attacker.attack).finally(attacker.stop)
			for (const attack of attacks) expect(attack).toMatchObject({ status: 200, body: { input_tokens: expect.any(Number) } })
			expectNoStall(latencies)
		}, 60_000)

		test('80 KB of nested JSON posted to the login is a 400, and /api/status answers others within 300 ms meanwhile', async () => {
			const { attacks, latencies } = await probeWhile(harness.baseUrl, () => post('/api/user/login', NESTED_ARRAYS))
			for (const attack of attacks) expect(attack).toMatchObject({ status: 400, body: { success: false, message: MESSAGES.jsonTooDeep } })
			expect(median(latencies)).toBeLessThan(STATUS_BOUND_MS)
		})

		test('a 3 MB login body as deep as allowed fails validation with a 400 without holding others for 300 ms', async () => {
			// The body's own object is the first level.
			const username = '['.repeat(MAX_JSON_DEPTH - 1) + new Array(1_500_000).fill(0).join(',') + ']'.repeat(MAX_JSON_DEPTH - 1)
			const { attacks, latencies } = await probeWhile(harness.baseUrl, () => post('/api/user/login', `{"username":${username},"password":"x"}`))
			for (const attack of attacks) expect(attack).toMatchObject({ status: 400, body: { success: false } })
			expect(median(latencies)).toBeLessThan(STATUS_BOUND_MS)
		})

		test('an admin\'s channel with a million model names is a 400 without holding others for 300 ms', async () => {
			const root = harness.root
			const headers = { cookie: root.cookie!, 'new-api-user': String(root.userId) }
			const models = `[${new Array(1_000_000).fill(1).join(',')}]`
			const { attacks, latencies } = await probeWhile(harness.baseUrl, () => post('/api/channel/', `{"type":1,"name":"many","key":"sk-x","models":${models}}`, headers))
			for (const attack of attacks) expect(attack).toMatchObject({ status: 400, body: { success: false } })
			expect(median(latencies)).toBeLessThan(STATUS_BOUND_MS)
		})

		test('count_tokens of "A" × 200 000 with a token of a user without quota is answered within 2 s, and /api/status within 300 ms meanwhile', async () => {
			const countTokens = (content: string) => post('/v1/messages/count_tokens', JSON.stringify({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content }] }), { 'x-api-key': keyWithoutQuota })
			// The tokenizer loads on first use (on its own thread); the bound is for the counting.
			expect((await countTokens('warm up')).status).toBe(200)
			const { attacks, latencies } = await probeWhile(harness.baseUrl, () => countTokens('A'.repeat(RUN_LENGTH)))
			for (const attack of attacks) {
				expect(attack).toMatchObject({ status: 200, body: { input_tokens: RUN_TOKENS } })
				expect(attack.ms).toBeLessThan(COUNT_TOKENS_BOUND_MS)
			}
			expect(median(latencies)).toBeLessThan(STATUS_BOUND_MS)
		})
	})
}
