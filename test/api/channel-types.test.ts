/**
 * The channel types as the provider adaptors declare them, seen through the management API:
 * `GET /api/channel/types` (names, key formats and capabilities for the console) and `GET /api/models` (the
 * editor's presets), on a fresh store and with channels configured.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import type { ChannelTypeInfo } from '@shared/channel'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { ROLE } from '@shared/user'
import { capabilities, channelTypeDescriptions } from '@/relay/providers/registry'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'

const TYPE_NUMBERS = Object.values(CHANNEL_TYPE)
const defaultModelsOf = (type: number) => channelTypeDescriptions().find((description) => description.type === type)!.defaultModels

for (const target of databaseTargets()) {
	describe(`channel types on ${target.dialect}`, () => {
		let ferry: TestApp
		let admin: Caller
		beforeEach(async () => {
			ferry = await createTestApp(target)
			admin = await ferry.createUser('admin', ROLE.admin)
		})
		afterEach(() => ferry.close())

		const modelsByType = async (): Promise<Record<string, string[]>> => (await ferry.call('GET', '/api/models', { as: admin })).body.data

		test('a fresh install answers default models for every channel type, so the editor has presets before any channel exists', async () => {
			const answer = await modelsByType()
			for (const type of TYPE_NUMBERS) {
				const models = answer[String(type)]
				expect({ type, models }).toEqual({ type, models: expect.any(Array) })
				expect(models!.length).toBeGreaterThan(0)
				expect(models!.every((model) => typeof model === 'string' && model.trim() === model && model !== '')).toBe(true)
				expect(new Set(models).size).toBe(models!.length)
			}
			// Suno's two models in their order, Midjourney's drawing actions for both proxy types (docs/specification/channels.md#types).
			expect(answer[CHANNEL_TYPE.suno]).toEqual(['suno_music', 'suno_lyrics'])
			expect(answer[CHANNEL_TYPE.midjourney]).toContain('mj_imagine')
			expect(answer[CHANNEL_TYPE.midjourneyPlus]).toEqual(answer[CHANNEL_TYPE.midjourney]!)
		})

		test('adds what configured channels serve after the defaults, sorted, and keeps a type only stored channels have', async () => {
			const { channels } = ferry.store.tables
			await ferry.store.db.insert(channels).values([
				{ type: CHANNEL_TYPE.openai, key: 'k1', models: 'zeta-model,gpt-4o' },
				{ type: CHANNEL_TYPE.openai, key: 'k2', models: ' alpha-model , zeta-model' },
				{ type: 999, key: 'k3', models: 'legacy-model' },
			])
			const answer = await modelsByType()
			expect(answer[CHANNEL_TYPE.openai]).toEqual([...defaultModelsOf(CHANNEL_TYPE.openai), 'alpha-model', 'zeta-model'])
			expect(answer[999]).toEqual(['legacy-model'])
			expect(answer[CHANNEL_TYPE.anthropic]).toEqual([...defaultModelsOf(CHANNEL_TYPE.anthropic)])
		})

		test('lists every channel type once, in the console\'s order, with its display name and the key formats of the specification, for admins only', async () => {
			const answer = await ferry.call('GET', '/api/channel/types', { as: admin })
			expect(answer.body.success).toBe(true)
			const types: ChannelTypeInfo[] = answer.body.data
			expect(types.map((info) => info.type).sort((left, right) => left - right)).toEqual([...TYPE_NUMBERS].sort((left, right) => left - right))
			expect(types.slice(0, 5).map((info) => info.name)).toEqual(['OpenAI', 'Midjourney Proxy', 'Midjourney Proxy Plus', 'Suno', 'Ollama'])
			expect(types.every((info) => info.name.trim() !== '')).toBe(true)
			const formats = Object.fromEntries(types.filter((info) => info.key_format).map((info) => [info.type, info.key_format]))
			expect(formats).toEqual({
				[CHANNEL_TYPE.baidu]: 'APIKey|SecretKey',
				[CHANNEL_TYPE.xunfei]: 'APPID|APISecret|APIKey',
				[CHANNEL_TYPE.fastgpt]: 'APIKey-AppId',
				[CHANNEL_TYPE.tencent]: 'AppId|SecretId|SecretKey',
				[CHANNEL_TYPE.aws]: 'Ak|Sk|Region',
				[CHANNEL_TYPE.kling]: 'AccessKey|SecretKey',
			})
			const user = await ferry.createUser('plain', ROLE.user)
			expect((await ferry.call('GET', '/api/channel/types', { as: user })).status).toBe(403)
		})

		test('names the types in Chinese for a zh reader (Custom, Baidu, Alibaba …), keeping brand names, and in English otherwise', async () => {
			const namesIn = async (language: string) => {
				const answer = await ferry.call('GET', '/api/channel/types', { as: admin, headers: { 'accept-language': language } })
				return Object.fromEntries((answer.body.data as ChannelTypeInfo[]).map((info) => [info.type, info.name]))
			}
			const zh = await namesIn('zh-CN')
			expect(zh[CHANNEL_TYPE.custom]).toBe('自定义渠道（OpenAI 兼容）')
			expect(zh[CHANNEL_TYPE.baidu]).toBe('百度文心千帆')
			expect(zh[CHANNEL_TYPE.ali]).toBe('阿里通义千问')
			expect(zh[CHANNEL_TYPE.openai]).toBe('OpenAI')
			expect(zh[CHANNEL_TYPE.suno]).toBe('Suno')
			const en = await namesIn('en-US')
			expect(en[CHANNEL_TYPE.custom]).toBe('Custom')
			expect(en[CHANNEL_TYPE.baidu]).toBe('Baidu Wenxin')
			// Every type has a name in both, and no two types share one.
			for (const names of [zh, en]) expect(new Set(Object.values(names)).size).toBe(TYPE_NUMBERS.length)
		})

		test('each type comes with what it can do, as routing and the channel tools see it: how a test reaches it, what it streams, what it passes through', async () => {
			const types: ChannelTypeInfo[] = (await ferry.call('GET', '/api/channel/types', { as: admin })).body.data
			const of = (type: number) => types.find((info) => info.type === type)!.capabilities
			expect(of(CHANNEL_TYPE.xunfei)).toMatchObject({ test_endpoint: 'chat', endpoints: { chat: { stream: true } }, task_platform: null })
			expect(of(CHANNEL_TYPE.jina)).toMatchObject({ test_endpoint: 'embeddings' })
			expect(of(CHANNEL_TYPE.jina).endpoints.chat).toBeUndefined()
			expect(of(CHANNEL_TYPE.midjourney)).toMatchObject({ test_endpoint: null, task_platform: 'midjourney', endpoints: {} })
			expect(of(CHANNEL_TYPE.anthropic).native_formats).toEqual(['claude'])
			expect(of(CHANNEL_TYPE.openai)).toMatchObject({ model_list: true, test_endpoint: 'chat', endpoints: { chat: { stream: true }, embeddings: { stream: false } } })
			expect(of(CHANNEL_TYPE.palm).endpoints.chat).toEqual({ stream: false })
			for (const info of types) {
				const can = capabilities(info.type)!
				expect(info.capabilities.test_endpoint).toBe(can.testEndpoint ?? null)
				expect(info.capabilities.balance).toBe(can.readsBalance)
			}
		})
	})
}
