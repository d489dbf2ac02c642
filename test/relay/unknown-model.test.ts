import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Anthropic from '@anthropic-ai/sdk'
import { ApiError, GoogleGenAI } from '@google/genai'
import OpenAI from 'openai'
import { eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { auditLedger } from '@/billing/audit'
import { databaseTargets } from '../helpers/database'
import type { FakeOpenAI } from '../helpers/fake-openai'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const SERVED = 'gpt-4o-mini'
/** Listed only by a disabled channel: it exists, but no channel can take it now. */
const RETIRED = 'gpt-4o-retired'
/** Listed by no channel at all. */
const UNLISTED = 'gemini-2.5-flash-lite-classifier'
/** Listed only by a disabled channel of the vip group. */
const VIP_RETIRED = 'gpt-4o-vip-retired'

/**
 * A model no channel of the caller's groups lists does not exist for the caller: a 404 in the
 * client's format, which the official SDKs do not retry. A model whose channels are disabled stays a
 * 503, which they do. Either way nothing reaches an upstream, nothing is held and nothing is charged.
 */
for (const target of databaseTargets()) {
	describe(`a model no channel lists, through the official SDKs, on ${target.dialect}`, () => {
		let harness: RelayHarness
		let upstream: FakeOpenAI
		let userId: number
		let tokenId: number
		let key: string
		let autoKey: string
		/** Requests the SDKs sent to Ferry, retries included. */
		let sent = 0
		const counting = ((input: RequestInfo | URL, init?: RequestInit) => {
			sent++
			return fetch(input, init)
		}) as typeof fetch

		const openai = (apiKey: string, maxRetries: number) => new OpenAI({ apiKey, baseURL: `${harness.baseUrl}/v1`, maxRetries, fetch: counting })
		const anthropic = (maxRetries: number) => new Anthropic({ apiKey: key, baseURL: harness.baseUrl, maxRetries, fetch: counting })
		const gemini = (attempts: number) => new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: harness.baseUrl, fetch: counting, retryOptions: { attempts, initialDelay: 0.05, maxDelay: 0.1 } } })

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			upstream = harness.startUpstream()
			await harness.createChannel({ base_url: upstream.url, models: SERVED })
			const retired = await harness.createChannel({ name: 'retired', base_url: upstream.url, models: RETIRED })
			const vipRetired = await harness.createChannel({ name: 'vip-retired', base_url: upstream.url, models: VIP_RETIRED, group: 'vip' })
			for (const id of [retired, vipRetired]) expect((await harness.ferry.call('PUT', '/api/channel/', { as: harness.root, body: { id, status: 2 } })).body.success).toBe(true)
			await harness.ferry.dependencies.options.set('AutoGroups', '["default","vip"]')
			const user = await harness.ferry.createUser('caller')
			userId = user.userId
			await harness.ferry.call('PUT', '/api/user/', { as: harness.root, body: { id: userId, quota: 100_000 } })
			const token = await harness.createToken({ name: 'limited', unlimited_quota: false, remain_quota: 50_000 }, user)
			tokenId = token.id
			key = token.key
			autoKey = (await harness.createToken({ name: 'auto', group: 'auto' }, user)).key
		})
		afterAll(() => harness.close())

		const balances = () => harness.account(userId, tokenId)
		const consumeLogs = async () => {
			const { logs } = harness.ferry.store.tables
			return (await harness.ferry.store.db.select().from(logs).where(eq(logs.type, LOG_TYPE.consume))).length
		}
		const pendingHolds = async () => {
			const { quotaHolds } = harness.ferry.store.tables
			return harness.ferry.store.db.select().from(quotaHolds).where(eq(quotaHolds.state, 'pending'))
		}

		/** The SDK call's error and how many requests it sent; also checks that nothing was sent upstream, held or charged. */
		const refusal = async (call: () => Promise<unknown>) => {
			const before = { balances: await balances(), logs: await consumeLogs(), upstream: upstream.requests.length }
			sent = 0
			const error = await call().then(() => undefined, (caught: unknown) => caught)
			const requests = sent
			expect(upstream.requests.length).toBe(before.upstream)
			expect(await balances()).toEqual(before.balances)
			expect(await consumeLogs()).toBe(before.logs)
			expect(await pendingHolds()).toEqual([])
			return { error, requests }
		}

		test('the OpenAI SDK gets a 404 model_not_found of type invalid_request_error, naming the model and group, and sends it once', async () => {
			const { error, requests } = await refusal(() => openai(key, 2).chat.completions.create({ model: UNLISTED, messages: [{ role: 'user', content: 'Hi' }] }))
			expect(error).toBeInstanceOf(OpenAI.NotFoundError)
			const notFound = error as InstanceType<typeof OpenAI.NotFoundError>
			expect(notFound.status).toBe(404)
			expect(notFound.code).toBe('model_not_found')
			expect(notFound.type).toBe('invalid_request_error')
			expect(notFound.message).toContain(`no available channels for model ${UNLISTED} in group default`)
			expect(requests).toBe(1)
		})

		test('the Anthropic SDK gets a 404 not_found_error and sends it once', async () => {
			const { error, requests } = await refusal(() => anthropic(2).messages.create({ model: UNLISTED, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] }))
			expect(error).toBeInstanceOf(Anthropic.NotFoundError)
			const notFound = error as InstanceType<typeof Anthropic.NotFoundError>
			expect(notFound.status).toBe(404)
			expect(notFound.error).toMatchObject({ type: 'error', error: { type: 'not_found_error', message: expect.stringContaining(`no available channels for model ${UNLISTED}`) } })
			expect(requests).toBe(1)
		})

		test('the Google GenAI SDK, told to retry, gets a 404 NOT_FOUND and sends it once', async () => {
			const { error, requests } = await refusal(() => gemini(3).models.generateContent({ model: UNLISTED, contents: 'Hi' }))
			expect(error).toBeInstanceOf(ApiError)
			expect((error as ApiError).status).toBe(404)
			expect((error as ApiError).message).toContain('NOT_FOUND')
			expect((error as ApiError).message).toContain(`no available channels for model ${UNLISTED}`)
			expect(requests).toBe(1)
		})

		test('a model whose only channel is disabled is still a 503, which each SDK retries', async () => {
			const openAIFailure = await refusal(() => openai(key, 1).chat.completions.create({ model: RETIRED, messages: [{ role: 'user', content: 'Hi' }] }))
			expect(openAIFailure.error).toBeInstanceOf(OpenAI.InternalServerError)
			expect(openAIFailure.error).toMatchObject({ status: 503, code: 'model_not_found', type: 'server_error' })
			expect(openAIFailure.requests).toBe(2)
			const claudeFailure = await refusal(() => anthropic(1).messages.create({ model: RETIRED, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] }))
			expect(claudeFailure.error).toBeInstanceOf(Anthropic.InternalServerError)
			expect((claudeFailure.error as InstanceType<typeof Anthropic.APIError>).status).toBe(503)
			expect(claudeFailure.requests).toBe(2)
			const geminiFailure = await refusal(() => gemini(2).models.generateContent({ model: RETIRED, contents: 'Hi' }))
			expect((geminiFailure.error as ApiError).status).toBe(503)
			expect(geminiFailure.requests).toBe(2)
		})

		test('an auto token gets a 404 only when no usable group lists the model, and a 503 when a disabled channel of another group does', async () => {
			const unlisted = await refusal(() => openai(autoKey, 2).chat.completions.create({ model: UNLISTED, messages: [{ role: 'user', content: 'Hi' }] }))
			expect(unlisted.error).toMatchObject({ status: 404, code: 'model_not_found' })
			expect(unlisted.requests).toBe(1)
			const retired = await refusal(() => openai(autoKey, 0).chat.completions.create({ model: VIP_RETIRED, messages: [{ role: 'user', content: 'Hi' }] }))
			expect(retired.error).toMatchObject({ status: 503, code: 'model_not_found' })
		})

		test('a model listed only in a group the token does not route in is a 404 there', async () => {
			const { error } = await refusal(() => openai(key, 0).chat.completions.create({ model: VIP_RETIRED, messages: [{ role: 'user', content: 'Hi' }] }))
			expect(error).toMatchObject({ status: 404, code: 'model_not_found' })
		})

		test('a served model still answers, and the ledger adds up after every refusal', async () => {
			expect((await openai(key, 0).chat.completions.create({ model: SERVED, messages: [{ role: 'user', content: 'Hi' }] })).choices).toHaveLength(1)
			expect(await auditLedger(harness.ferry.store)).toEqual([])
		})
	})
}
