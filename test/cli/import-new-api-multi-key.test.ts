/**
 * `ferry import new-api` and new-api's multi-key channels (`channel_info.is_multi_key`): each
 * becomes one Ferry multi-key channel holding its keys at their indexes, with each key's status,
 * disabled reason and time and the channel's `multi_key_mode` — a Vertex AI pool from its JSON
 * array of service accounts too — rather than a channel per key.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { asc, eq } from 'drizzle-orm'
import { CHANNEL_STATUS, CHANNEL_TYPE } from '@shared/channel-type'
import { importNewApi } from '@/cli/import-new-api'
import { openSource } from '@/cli/import-new-api/source'
import type { Store } from '@/db'
import { loadRoutableChannels } from '@/db/stores/channels'
import { createSecretBox } from '@/lib/crypto'
import { createTestApp, testConfig, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { PUBLISHED_BCRYPT, type Rows, writeSqliteSource } from '../helpers/new-api-source'

const POOL_KEYS = ['sk-imported-a-000000000000000', 'sk-imported-b-111111111111111', 'sk-imported-c-222222222222222']
const serviceAccount = (name: string) => ({
	type: 'service_account', project_id: `project-${name}`, private_key_id: `${name}-0123456789abcdef0123`,
	private_key: '-----BEGIN PRIVATE KEY-----\nMIIEvQ\n-----END PRIVATE KEY-----\n', client_email: `${name}@project.iam.gserviceaccount.com`,
})

for (const target of databaseTargets()) {
	describe(`new-api multi-key channels imported into ${target.dialect}`, () => {
		let directory: string
		let store: Store
		let ferry: TestApp
		let lines: string[]
		const secrets = createSecretBox(testConfig.cryptoSecret, testConfig.sessionSecret)

		beforeAll(async () => {
			directory = mkdtempSync(join(tmpdir(), 'ferry-import-multi-key-'))
			const channel = (fields: Record<string, unknown>) => ({ type: 1, status: 1, models: 'gpt-4o', group: 'default', created_time: 1_700_000_000, ...fields })
			const rows: Rows = {
				users: [{ id: 1, username: 'root', password: PUBLISHED_BCRYPT.hash, role: 100, status: 1, quota: 0, used_quota: 0, aff_code: 'root0001' }],
				channels: [
					channel({
						id: 1, name: 'pool', key: `${POOL_KEYS.join('\n')}\n${POOL_KEYS[0]}\n`,
						channel_info: JSON.stringify({
							is_multi_key: true, multi_key_size: 4, multi_key_status_list: { 1: 2, 2: 3 },
							multi_key_disabled_reason: { 1: 'turned off for the night', 2: 'Incorrect API key provided' },
							multi_key_disabled_time: { 1: 1_700_000_100, 2: 1_700_000_200 }, multi_key_polling_index: 1, multi_key_mode: 'polling',
						}),
					}),
					channel({
						id: 2, name: 'vertex', type: CHANNEL_TYPE.vertex, other: 'us-east5', models: 'gemini-1.5-pro',
						key: JSON.stringify([serviceAccount('first'), serviceAccount('second')]),
						channel_info: JSON.stringify({ is_multi_key: true, multi_key_size: 2, multi_key_status_list: {}, multi_key_mode: 'random' }),
					}),
					channel({ id: 3, name: 'single', key: 'sk-imported-single-0000000000', channel_info: '{}' }),
				],
			}
			const location = join(directory, 'new-api.db')
			writeSqliteSource(location, rows)
			store = await target.open()
			const source = await openSource(location)
			try {
				const report = await importNewApi({ source, target: { store, where: store.dialect }, withLogs: true, progress: () => {}, secrets })
				lines = report.lines()
			} finally {
				await source.close()
			}
			ferry = await createTestApp({ open: async () => store })
		})

		afterAll(async () => {
			await ferry?.close()
			rmSync(directory, { recursive: true, force: true })
		})

		test('each multi-key channel is one channel, and the report says how many keys came and which were left out', () => {
			expect(lines).toContain('channels: 3 read, 3 imported')
			expect(lines).toContain('  note — 1 repeated key(s) left out: 1 "pool"')
			expect(lines).toContain('  note — multi-key channel: 3 key(s), 2 of them disabled: 1 "pool"')
			expect(lines).toContain('  note — multi-key channel: 2 key(s): 2 "vertex"')
		})

		test('keys keep their indexes, statuses, disabled reasons and times, and the channel its multi-key mode', async () => {
			const root = await ferry.login('root', PUBLISHED_BCRYPT.password)
			const answer = await ferry.call('GET', '/api/channel/1', { as: root })
			expect(answer.body.data).toMatchObject({ name: 'pool', mode: 'multi_key', multi_key_mode: 'polling', status: 1, key_counts: { total: 3, enabled: 1, manually_disabled: 1, auto_disabled: 1 } })
			expect(answer.body.data.keys.map(({ index, status, status_reason, status_time }: Record<string, unknown>) => ({ index, status, status_reason, status_time }))).toEqual([
				{ index: 0, status: CHANNEL_STATUS.enabled, status_reason: '', status_time: 0 },
				{ index: 1, status: CHANNEL_STATUS.manuallyDisabled, status_reason: 'turned off for the night', status_time: 1_700_000_100 },
				{ index: 2, status: CHANNEL_STATUS.autoDisabled, status_reason: 'Incorrect API key provided', status_time: 1_700_000_200 },
			])
			const text = JSON.stringify(answer.body)
			for (const key of POOL_KEYS) expect(text).not.toContain(key)
			// Keys added later take indexes after the imported ones.
			const added = await ferry.call('POST', '/api/channel/1/keys', { as: root, body: { key: 'sk-added-after-import-0000' } })
			expect(added.body.data).toEqual({ indexes: [3], duplicates: 0 })
		})

		test('the relay routes the pool\'s enabled keys, and each Vertex service account as a key of its own', async () => {
			const routable = await loadRoutableChannels(store, secrets)
			const pool = routable.find((channel) => channel.id === 1)!
			expect(pool).toMatchObject({ mode: 'multi_key', multiKeyMode: 'polling', key: POOL_KEYS[0] })
			expect(pool.keys.filter((key) => key.index < 3)).toEqual([{ index: 0, key: POOL_KEYS[0]! }])
			const vertex = routable.find((channel) => channel.id === 2)!
			expect(vertex.keys.map((key) => JSON.parse(key.key).client_email)).toEqual(['first@project.iam.gserviceaccount.com', 'second@project.iam.gserviceaccount.com'])
			expect(vertex).toMatchObject({ mode: 'multi_key', multiKeyMode: 'random', other: 'us-east5' })
			expect(routable.find((channel) => channel.id === 3)).toMatchObject({ mode: 'single', keys: [{ index: 0, key: 'sk-imported-single-0000000000' }] })
			const { channelKeys } = store.tables
			const sealed = await store.db.select({ key: channelKeys.key }).from(channelKeys).where(eq(channelKeys.channelId, 2)).orderBy(asc(channelKeys.position))
			for (const { key } of sealed) expect(key).not.toContain('BEGIN PRIVATE KEY')
		})
	})
}
