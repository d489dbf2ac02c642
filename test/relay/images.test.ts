/**
 * `/v1/images/generations`, `/edits` and `/variations` through the `openai` SDK, on OpenAI, Azure and
 * Custom channels: what the upstream received, what the client got, and the exact charge — per image
 * times new-api's size/quality factors for a fixed price, by tokens for a model priced by ratios whose
 * upstream reports usage (gpt-image).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import OpenAI, { toFile } from 'openai'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { databaseTargets } from '../helpers/database'
import { TINY_PNG_BASE64 } from '../helpers/fake-media'
import { failureOf } from '../helpers/fixture-upstream'
import { startMediaSuite, type MediaSuite } from '../helpers/media-relay'

/** Served by an Anthropic channel only: it cannot make images. */
const CHAT_ONLY = 'claude-sonnet-4-5'
const PNG = Buffer.from(TINY_PNG_BASE64, 'base64')
const MASK = Buffer.from('fake-mask-bytes')

for (const target of databaseTargets()) {
	describe(`images on ${target.dialect}`, () => {
		let suite: MediaSuite
		beforeAll(async () => {
			suite = await startMediaSuite(target, {
				options: {
					ModelPrice: { 'dall-e-3': 0.04, 'dall-e-2': 0.02, 'azure-image': 0.04, 'custom-image': 0.05, 'mapped-image': 0.04 },
					ModelRatio: { 'gpt-image-1': 5, [CHAT_ONLY]: 1 },
					CompletionRatio: { 'gpt-image-1': 8 },
				},
				channels: (url) => [
					{ type: CHANNEL_TYPE.openai, name: 'openai', base_url: url, models: 'dall-e-3,dall-e-2,gpt-image-1,mapped-image', model_mapping: JSON.stringify({ 'mapped-image': 'dall-e-2' }) },
					{ type: CHANNEL_TYPE.azure, name: 'azure', key: 'azure-key', base_url: url, models: 'azure-image', other: '2025-04-01-preview' },
					{ type: CHANNEL_TYPE.custom, name: 'custom', key: 'custom-key', base_url: `${url}/custom/images/generations`, models: 'custom-image' },
					{ type: CHANNEL_TYPE.anthropic, name: 'claude', key: 'claude-key', base_url: url, models: CHAT_ONLY },
				],
			})
		})
		beforeEach(() => {
			suite.upstream.requests.length = 0
			suite.upstream.options.imageUsage = undefined
			suite.upstream.options.failWith = undefined
		})
		afterAll(() => suite.close())

		test('one 1024×1024 image at a fixed price of $0.04 costs exactly 20 000 quota, and the client gets the upstream\'s images', async () => {
			const { result, charge } = await suite.charged(() => suite.client.images.generate({ model: 'dall-e-3', prompt: 'A ferry at dawn', size: '1024x1024', n: 1 }))
			expect(charge).toBe(20_000)
			expect(result.data).toEqual([{ b64_json: TINY_PNG_BASE64 }])
			const sent = suite.upstream.requests.at(-1)!
			expect(sent.path).toBe('/v1/images/generations')
			expect(sent.headers.authorization).toBe('Bearer sk-upstream-key')
			expect(sent.json).toEqual({ model: 'dall-e-3', prompt: 'A ferry at dawn', size: '1024x1024', n: 1 })
			expect(await suite.lastConsumeLog()).toMatchObject({ model_name: 'dall-e-3', quota: 20_000 })
			expect(await suite.pendingHolds()).toEqual([])
		})

		test('a fixed price is charged per image times new-api\'s size and quality factors', async () => {
			// dall-e-3 hd at 1792×1024: 0.04 × 2 (size) × 1.5 (hd, tall or wide) × 500 000.
			expect((await suite.charged(() => suite.client.images.generate({ model: 'dall-e-3', prompt: 'Wide', size: '1792x1024', quality: 'hd' }))).charge).toBe(60_000)
			// dall-e-3 hd at 1024×1024: 0.04 × 2 (hd).
			expect((await suite.charged(() => suite.client.images.generate({ model: 'dall-e-3', prompt: 'Square', quality: 'hd', size: '1024x1024' }))).charge).toBe(40_000)
			// dall-e-2, three 256×256 images: 0.02 × 0.4 × 3.
			const { result, charge } = await suite.charged(() => suite.client.images.generate({ model: 'dall-e-2', prompt: 'Small', size: '256x256', n: 3 }))
			expect(charge).toBe(12_000)
			expect(result.data).toHaveLength(3)
		})

		test('a gpt-image model priced by ratios is charged by the tokens its upstream reports', async () => {
			suite.upstream.options.imageUsage = { input_tokens: 50, output_tokens: 1056 }
			const { result, charge } = await suite.charged(() => suite.client.images.generate({ model: 'gpt-image-1', prompt: 'A lighthouse', quality: 'high' }))
			// (50 + 1056 × 8) × 5
			expect(charge).toBe(42_490)
			expect(result.usage).toMatchObject({ input_tokens: 50, output_tokens: 1056 })
			expect(await suite.lastConsumeLog()).toMatchObject({ prompt_tokens: 50, completion_tokens: 1056, quota: 42_490 })
		})

		test('an edit\'s upload reaches the upstream intact, every part and byte, and is charged per image', async () => {
			const { result, charge } = await suite.charged(async () => suite.client.images.edit({
				model: 'dall-e-2', prompt: 'Add a boat', n: 2, size: '512x512',
				image: await toFile(PNG, 'harbour.png', { type: 'image/png' }), mask: await toFile(MASK, 'mask.png', { type: 'image/png' }),
			}))
			expect(charge).toBe(9_000) // 0.02 × 0.45 (512×512) × 2 images × 500 000
			expect(result.data).toHaveLength(2)
			const sent = suite.upstream.requests.at(-1)!
			expect(sent.path).toBe('/v1/images/edits')
			expect(sent.fields).toEqual({ model: 'dall-e-2', prompt: 'Add a boat', n: '2', size: '512x512' })
			expect(sent.files!.image).toEqual({ filename: 'harbour.png', type: 'image/png', bytes: new Uint8Array(PNG) })
			expect(sent.files!.mask).toEqual({ filename: 'mask.png', type: 'image/png', bytes: new Uint8Array(MASK) })
		})

		test('an upload whose model the channel maps is sent with every part in order and only the model replaced', async () => {
			const form = new FormData()
			form.append('prompt', 'Add a boat')
			form.append('model', 'mapped-image')
			form.append('image', new File([PNG], 'harbour.png', { type: 'image/png' }))
			form.append('size', '1024x1024')
			const encoded = new Response(form)
			const response = await fetch(`${suite.harness.baseUrl}/v1/images/edits`, {
				method: 'POST', headers: { authorization: `Bearer ${suite.key}`, 'content-type': encoded.headers.get('content-type')! }, body: await encoded.arrayBuffer(),
			})
			expect(response.status).toBe(200)
			const sent = suite.upstream.requests.at(-1)!
			expect(Object.entries(sent.fields!)).toEqual([['prompt', 'Add a boat'], ['model', 'dall-e-2'], ['size', '1024x1024']])
			expect(sent.files!.image).toEqual({ filename: 'harbour.png', type: 'image/png', bytes: new Uint8Array(PNG) })
		})

		test('an upload with an unchanged model reaches the upstream as the client\'s own bytes', async () => {
			const form = new FormData()
			form.append('model', 'dall-e-2')
			form.append('image', new File([PNG], 'harbour.png', { type: 'image/png' }))
			form.append('future_field', 'kept')
			const encoded = new Response(form)
			const contentType = encoded.headers.get('content-type')!
			const bytes = new Uint8Array(await encoded.arrayBuffer())
			const response = await fetch(`${suite.harness.baseUrl}/v1/images/variations`, { method: 'POST', headers: { authorization: `Bearer ${suite.key}`, 'content-type': contentType }, body: bytes })
			expect(response.status).toBe(200)
			const sent = suite.upstream.requests.at(-1)!
			expect(sent.path).toBe('/v1/images/variations')
			expect(sent.headers['content-type']).toBe(contentType)
			expect(sent.raw).toEqual(bytes)
		})

		test('variations through the SDK are charged per image', async () => {
			const { result, charge } = await suite.charged(async () => suite.client.images.createVariation({ model: 'dall-e-2', image: await toFile(PNG, 'harbour.png', { type: 'image/png' }), n: 2, size: '1024x1024' }))
			expect(result.data).toHaveLength(2)
			expect(charge).toBe(20_000)
		})

		test('an upload that names no model is sent with OpenAI\'s default, dall-e-2, added as a part and charged at its price', async () => {
			const { charge } = await suite.charged(async () => suite.client.images.createVariation({ image: await toFile(PNG, 'harbour.png', { type: 'image/png' }) }))
			expect(charge).toBe(10_000)
			const sent = suite.upstream.requests.at(-1)!
			expect(sent.fields).toEqual({ model: 'dall-e-2' })
			expect(sent.files!.image!.bytes).toEqual(new Uint8Array(PNG))
		})

		test('an Azure channel gets the call at its deployment\'s images path with its api-key, and a Custom channel at its own URL', async () => {
			expect((await suite.charged(() => suite.client.images.generate({ model: 'azure-image', prompt: 'Azure' }))).charge).toBe(20_000)
			const azure = suite.upstream.requests.at(-1)!
			expect(`${azure.path}${azure.search}`).toBe('/openai/deployments/azure-image/images/generations?api-version=2025-04-01-preview')
			expect(azure.headers['api-key']).toBe('azure-key')
			expect((await suite.charged(() => suite.client.images.generate({ model: 'custom-image', prompt: 'Custom' }))).charge).toBe(25_000)
			const custom = suite.upstream.requests.at(-1)!
			expect(custom.path).toBe('/custom/images/generations')
			expect(custom.headers.authorization).toBe('Bearer custom-key')
		})

		test('a model no enabled channel can make images with, and variations on Azure, are a 400 in OpenAI\'s shape before any hold', async () => {
			const before = await suite.balances()
			const claude = await failureOf(suite.client.images.generate({ model: CHAT_ONLY, prompt: 'Hi' }))
			expect(claude).toBeInstanceOf(OpenAI.BadRequestError)
			expect(claude!.code).toBe('endpoint_not_supported')
			expect(claude!.message).toContain(`no channel serving the model ${CHAT_ONLY} supports image-generations`)
			const azure = await failureOf(suite.client.images.createVariation({ model: 'azure-image', image: await toFile(PNG, 'a.png', { type: 'image/png' }) }))
			expect(azure?.status).toBe(400)
			expect(azure!.code).toBe('endpoint_not_supported')
			expect(suite.upstream.requests).toHaveLength(0)
			expect(await suite.balances()).toEqual(before)
			expect(await suite.pendingHolds()).toEqual([])
		})

		test('bad image requests are a 400 naming the field, and an oversized upload a 413, with nothing held or sent', async () => {
			const before = await suite.balances()
			const cases: [Promise<unknown>, string][] = [
				[suite.client.images.generate({ model: 'dall-e-3', prompt: 'Hi', n: 0 }), 'n:'],
				[suite.client.images.generate({ model: 'dall-e-3', prompt: 'Hi', n: 11 }), 'n:'],
				[suite.client.images.generate({ model: 'dall-e-3', prompt: '' }), 'prompt:'],
				[suite.client.images.generate({ model: 'dall-e-3', prompt: 'Hi', stream: true } as never), 'stream:'],
				[suite.client.images.edit({ model: 'dall-e-2', prompt: 'Hi', n: 'many' as never, image: await toFile(PNG, 'a.png', { type: 'image/png' }) }), 'n:'],
			]
			for (const [call, field] of cases) {
				const failure = await failureOf(call)
				expect(failure?.status).toBe(400)
				expect(failure?.message).toContain(field)
			}
			const post = (headers: Record<string, string>, body: BodyInit) => fetch(`${suite.harness.baseUrl}/v1/images/edits`, { method: 'POST', headers: { authorization: `Bearer ${suite.key}`, ...headers }, body })
			const noImage = new FormData()
			noImage.append('model', 'dall-e-2')
			noImage.append('prompt', 'Hi')
			const noImageAnswer = await post({}, noImage)
			expect(noImageAnswer.status).toBe(400)
			expect(await noImageAnswer.json()).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringContaining('image:') } })
			const malformed = await post({ 'content-type': 'multipart/form-data; boundary=xyz' }, '--xyz\r\nContent-Disposition: form-data; name="model"\r\n\r\ndall')
			expect(malformed.status).toBe(400)
			expect(await malformed.json()).toMatchObject({ error: { message: 'the multipart/form-data body is malformed' } })
			const plain = await post({ 'content-type': 'text/plain' }, 'model=dall-e-2')
			expect(plain.status).toBe(400)
			const huge = new FormData()
			huge.append('model', 'dall-e-2')
			huge.append('image', new File([new Uint8Array(suite.harness.ferry.dependencies.config.maxBodyBytes + 1)], 'big.png', { type: 'image/png' }))
			const tooLarge = await post({}, huge)
			expect(tooLarge.status).toBe(413)
			expect(await tooLarge.json()).toMatchObject({ error: { code: 'request_too_large' } })
			// The same without a declared length: the reading stops at the limit.
			const encoded = new Response(huge)
			const streamed = await post({ 'content-type': encoded.headers.get('content-type')! }, encoded.body!)
			expect(streamed.status).toBe(413)
			expect(suite.upstream.requests).toHaveLength(0)
			expect(await suite.balances()).toEqual(before)
			expect(await suite.pendingHolds()).toEqual([])
		})

		test('an upstream that refuses the call passes its error on and the hold is returned in full', async () => {
			suite.upstream.options.failWith = 400
			const before = await suite.balances()
			const failure = await failureOf(suite.client.images.generate({ model: 'dall-e-3', prompt: 'Hi' }))
			expect(failure?.status).toBe(400)
			expect(failure?.message).toContain('fake failure 400')
			expect(await suite.balances()).toEqual(before)
			expect(await suite.pendingHolds()).toEqual([])
		})
	})
}
