/**
 * `/v1/moderations` through the `openai` SDK, priced by its input's tokens at the model's ratio; an
 * unpriced moderation model follows the self-use rule like any model. And no `/v1` path the SDK calls
 * for images, audio or moderations answers 501.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { databaseTargets } from '../helpers/database'
import { failureOf } from '../helpers/fixture-upstream'
import { startMediaSuite, type MediaSuite } from '../helpers/media-relay'

/** "Is this text safe to publish?" in o200k tokens. */
const INPUT = 'Is this text safe to publish?'
const INPUT_TOKENS = 7
const RATIO = 2

for (const target of databaseTargets()) {
	describe(`moderations on ${target.dialect}`, () => {
		let suite: MediaSuite
		beforeAll(async () => {
			suite = await startMediaSuite(target, {
				options: { ModelRatio: { 'omni-moderation-latest': RATIO, 'azure-moderation': 1 } },
				channels: (url) => [
					{ type: CHANNEL_TYPE.openai, name: 'openai', base_url: url, models: 'omni-moderation-latest,text-moderation-unpriced' },
					{ type: CHANNEL_TYPE.azure, name: 'azure', key: 'azure-key', base_url: url, models: 'azure-moderation' },
				],
			})
		})
		beforeEach(async () => {
			suite.upstream.requests.length = 0
			await suite.harness.ferry.dependencies.options.set('SelfUseModeEnabled', 'false')
		})
		afterAll(() => suite.close())

		test('a moderation passes upstream as sent, its results come back, and it costs its input\'s tokens at the model\'s ratio', async () => {
			const { result, charge } = await suite.charged(() => suite.client.moderations.create({ model: 'omni-moderation-latest', input: INPUT }))
			expect(result).toMatchObject({ id: 'modr-fake', model: 'omni-moderation-latest', results: [{ flagged: false }] })
			expect(charge).toBe(INPUT_TOKENS * RATIO)
			const sent = suite.upstream.requests.at(-1)!
			expect(sent.path).toBe('/v1/moderations')
			expect(sent.json).toEqual({ model: 'omni-moderation-latest', input: INPUT })
			expect(await suite.lastConsumeLog()).toMatchObject({ prompt_tokens: INPUT_TOKENS, completion_tokens: 0, quota: INPUT_TOKENS * RATIO, other: { local_count_tokens: true } })
		})

		test('a moderation that names no model is sent with OpenAI\'s default model and charged at its ratio', async () => {
			const { charge } = await suite.charged(() => suite.client.moderations.create({ input: INPUT }))
			expect(charge).toBe(INPUT_TOKENS * RATIO)
			expect(suite.upstream.requests.at(-1)!.json).toEqual({ input: INPUT, model: 'omni-moderation-latest' })
			expect(await suite.lastConsumeLog()).toMatchObject({ model_name: 'omni-moderation-latest' })
		})

		test('a list of texts and multimodal parts is charged for every text in it', async () => {
			const { result, charge } = await suite.charged(() => suite.client.moderations.create({ model: 'omni-moderation-latest', input: [INPUT, INPUT] }))
			expect(result.results).toHaveLength(2)
			expect(charge).toBe(2 * INPUT_TOKENS * RATIO)
			const parts = await suite.charged(() => suite.client.moderations.create({
				model: 'omni-moderation-latest', input: [{ type: 'text', text: INPUT }, { type: 'image_url', image_url: { url: 'https://example.com/a.png' } }],
			}))
			expect(parts.charge).toBe(INPUT_TOKENS * RATIO)
		})

		test('an unpriced moderation model is refused unless self-use mode is on, and then costs nothing', async () => {
			const refused = await failureOf(suite.client.moderations.create({ model: 'text-moderation-unpriced', input: INPUT }))
			expect(refused?.status).toBe(400)
			expect(refused!.code).toBe('model_price_unset')
			expect(suite.upstream.requests).toHaveLength(0)
			await suite.harness.ferry.dependencies.options.set('SelfUseModeEnabled', 'true')
			const { result, charge } = await suite.charged(() => suite.client.moderations.create({ model: 'text-moderation-unpriced', input: INPUT }))
			expect(result.results).toHaveLength(1)
			expect(charge).toBe(0)
			expect(await suite.pendingHolds()).toEqual([])
		})

		test('a moderation on a model only Azure serves, and a malformed input, are a 400 before any hold', async () => {
			const before = await suite.balances()
			const azure = await failureOf(suite.client.moderations.create({ model: 'azure-moderation', input: INPUT }))
			expect(azure?.status).toBe(400)
			expect(azure!.code).toBe('endpoint_not_supported')
			const malformed = await failureOf(suite.client.moderations.create({ model: 'omni-moderation-latest', input: [7] as never }))
			expect(malformed?.status).toBe(400)
			expect(malformed?.message).toContain('input.0:')
			expect(suite.upstream.requests).toHaveLength(0)
			expect(await suite.balances()).toEqual(before)
			expect(await suite.pendingHolds()).toEqual([])
		})

		test('no path the SDK calls for images, audio or moderations answers 501', async () => {
			for (const path of ['/images/generations', '/images/edits', '/images/variations', '/audio/speech', '/audio/transcriptions', '/audio/translations', '/moderations']) {
				const response = await fetch(`${suite.harness.baseUrl}/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
				expect([path, response.status]).toEqual([path, 401])
				expect(await response.json()).toMatchObject({ error: { code: 'missing_api_key' } })
			}
			expect((await fetch(`${suite.harness.baseUrl}/v1/files`, { method: 'POST' })).status).toBe(501)
		})

		test('the SDK\'s own errors for a wrong key come in OpenAI\'s shape', async () => {
			const failure = await failureOf(new OpenAI({ apiKey: 'sk-wrong', baseURL: `${suite.harness.baseUrl}/v1`, maxRetries: 0 }).moderations.create({ model: 'omni-moderation-latest', input: INPUT }))
			expect(failure).toBeInstanceOf(OpenAI.AuthenticationError)
			expect(failure!.code).toBe('invalid_api_key')
		})
	})
}
