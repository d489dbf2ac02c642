/**
 * Upstream model sync: `GET /api/channel/model_sync[/{id}]` tells an admin what an upstream's model
 * list adds to or drops from a channel's models, and `POST /api/channel/model_sync/{id}` applies a
 * chosen part through the channel update.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { desc, eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import type { ModelSyncDiff } from '@shared/channel'
import { databaseTargets } from '../helpers/database'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'

const UPSTREAM_KEY = 'sk-model-sync-upstream-key-0123456789'

for (const target of databaseTargets()) {
	describe(`upstream model sync on ${target.dialect}`, () => {
		let harness: RelayHarness
		const call = (method: string, path: string, body?: unknown, language = 'en') =>
			harness.ferry.call(method, path, { as: harness.root, body, headers: { 'accept-language': language } })
		const modelsOf = async (id: number) => {
			const { channels } = harness.ferry.store.tables
			const [row] = await harness.ferry.store.db.select({ models: channels.models }).from(channels).where(eq(channels.id, id))
			return row!.models
		}

		beforeAll(async () => {
			harness = await startRelayHarness(target)
			// The models the upstreams list here have no price: self-use mode lets the relay serve them.
			await harness.ferry.dependencies.options.set('SelfUseModeEnabled', 'true')
		})
		afterAll(async () => {
			await harness.close()
		})

		test('one channel\'s diff lists the models the upstream added and those it no longer lists', async () => {
			const upstream = harness.startUpstream({ apiKey: UPSTREAM_KEY, models: ['gpt-4o', 'gpt-4o-mini', 'gpt-5-new'] })
			const id = await harness.createChannel({ name: 'sync-plain', key: UPSTREAM_KEY, base_url: upstream.url, models: 'gpt-4o,retired-model,gpt-3.5-turbo' })
			const answer = await call('GET', `/api/channel/model_sync/${id}`)
			expect(answer.body).toEqual({
				success: true, message: '',
				data: { channels: [{ id, name: 'sync-plain', added: ['gpt-4o-mini', 'gpt-5-new'], removed: ['gpt-3.5-turbo', 'retired-model'], error: '' }] },
			})
			expect(upstream.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models' })
		})

		test('a mapped model counts as present under its upstream name, and its upstream name is not offered as added', async () => {
			const upstream = harness.startUpstream({ apiKey: UPSTREAM_KEY, models: ['gpt-4o-2024-08-06', 'gpt-4o-mini'] })
			const id = await harness.createChannel({
				name: 'sync-mapped', key: UPSTREAM_KEY, base_url: upstream.url, models: 'gpt-4o,gpt-4o-mini,ghost-alias',
				model_mapping: JSON.stringify({ 'gpt-4o': 'gpt-4o-2024-08-06', 'ghost-alias': 'ghost-upstream' }),
			})
			const answer = await call('GET', `/api/channel/model_sync/${id}`)
			expect(answer.body.data.channels).toEqual([{ id, name: 'sync-mapped', added: [], removed: ['ghost-alias'], error: '' }])
		})

		test('checking all enabled channels reports a failing upstream\'s error in the caller\'s language without failing the others', async () => {
			const good = harness.startUpstream({ apiKey: UPSTREAM_KEY, models: ['gpt-4o-mini', 'o3'] })
			const refusing = harness.startUpstream({ apiKey: 'sk-another-key-that-does-not-match', models: ['gpt-4o-mini'] })
			const healthy = await harness.createChannel({ name: 'sync-all-good', key: UPSTREAM_KEY, base_url: good.url, models: 'gpt-4o-mini' })
			const broken = await harness.createChannel({ name: 'sync-all-broken', key: UPSTREAM_KEY, base_url: refusing.url, models: 'gpt-4o-mini' })
			const disabled = await harness.createChannel({ name: 'sync-all-disabled', key: UPSTREAM_KEY, base_url: good.url, models: 'gpt-4o-mini', status: 2 })
			const pick = (diffs: ModelSyncDiff[], id: number) => diffs.find((diff) => diff.id === id)

			const english = await call('GET', '/api/channel/model_sync')
			expect(english.body.success).toBe(true)
			expect(pick(english.body.data.channels, healthy)).toEqual({ id: healthy, name: 'sync-all-good', added: ['o3'], removed: [], error: '' })
			expect(pick(english.body.data.channels, broken)).toEqual({
				id: broken, name: 'sync-all-broken', added: [], removed: [], error: expect.stringMatching(/^upstream answered 401: Incorrect API key/),
			})
			expect(pick(english.body.data.channels, disabled)).toBeUndefined()
			const ids = english.body.data.channels.map((diff: ModelSyncDiff) => diff.id)
			expect(ids).toEqual([...ids].sort((left: number, right: number) => left - right))

			const chinese = await call('GET', '/api/channel/model_sync', undefined, 'zh-CN')
			expect(pick(chinese.body.data.channels, broken)!.error).toMatch(/^上游返回 401：Incorrect API key/)
			expect(JSON.stringify(chinese.body)).not.toContain(UPSTREAM_KEY)
		})

		test('one channel whose upstream refuses is answered as a refusal naming the upstream\'s status', async () => {
			const refusing = harness.startUpstream({ apiKey: 'sk-yet-another-mismatched-key', models: ['gpt-4o-mini'] })
			const id = await harness.createChannel({ name: 'sync-one-broken', key: UPSTREAM_KEY, base_url: refusing.url, models: 'gpt-4o-mini' })
			const answer = await call('GET', `/api/channel/model_sync/${id}`)
			expect(answer.body).toMatchObject({ success: false, message: expect.stringMatching(/^upstream answered 401/) })
		})

		test('applying adds and removes the chosen models, records the edit, and the relay then routes the added model', async () => {
			const upstream = harness.startUpstream({ apiKey: UPSTREAM_KEY, models: ['gpt-4o-mini', 'fresh-model', 'other-new'] })
			const id = await harness.createChannel({ name: 'sync-apply', key: UPSTREAM_KEY, base_url: upstream.url, models: 'gpt-4o-mini,retired-model' })
			const { key } = await harness.createToken()
			const client = harness.client(key)
			const before = await client.chat.completions.create({ model: 'fresh-model', messages: [{ role: 'user', content: 'hi' }] }).then(() => 'served', (error: { status?: number }) => error.status)
			expect(before).toBe(404)

			const applied = await call('POST', `/api/channel/model_sync/${id}`, { add: ['fresh-model'], remove: ['retired-model'] })
			expect(applied.body).toMatchObject({ success: true, message: '1 model added, 1 model removed', data: { id, models: 'gpt-4o-mini,fresh-model' } })
			expect(await modelsOf(id)).toBe('gpt-4o-mini,fresh-model')
			const after = await call('GET', `/api/channel/model_sync/${id}`)
			expect(after.body.data.channels[0]).toMatchObject({ added: ['other-new'], removed: [] })

			const { logs } = harness.ferry.store.tables
			const [line] = await harness.ferry.store.db.select({ other: logs.other }).from(logs).where(eq(logs.type, LOG_TYPE.manage)).orderBy(desc(logs.id)).limit(1)
			expect(JSON.parse(line!.other).admin_action).toMatchObject({ action: 'channel.update', target: `#${id} "sync-apply"`, fields: 'models' })

			const reply = await client.chat.completions.create({ model: 'fresh-model', messages: [{ role: 'user', content: 'hi' }] })
			expect(reply.choices[0]!.message.content).toContain('Hello')
			expect(upstream.requests.at(-1)).toMatchObject({ path: '/v1/chat/completions', body: { model: 'fresh-model' } })
		})

		test('applying nothing, or removing every model, is refused in the caller\'s language and leaves the channel as it was', async () => {
			const id = await harness.createChannel({ name: 'sync-refused', key: UPSTREAM_KEY, base_url: 'http://127.0.0.1:9', models: 'only-model' })
			const nothing = await call('POST', `/api/channel/model_sync/${id}`, { add: [], remove: [] }, 'zh-CN')
			expect(nothing.body).toMatchObject({ success: false, message: '请至少选择一个要添加或移除的模型' })
			const emptied = await call('POST', `/api/channel/model_sync/${id}`, { remove: ['only-model'] })
			expect(emptied.body).toMatchObject({ success: false, message: 'a channel must keep at least one model' })
			const missing = await call('POST', '/api/channel/model_sync/999999', { add: ['x'] })
			expect(missing.body).toMatchObject({ success: false, message: 'channel not found, refresh and retry' })
			expect(await modelsOf(id)).toBe('only-model')
		})
	})
}
