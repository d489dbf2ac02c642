/**
 * Multi-key channels over `/api/channel`: creating one from a key list (lines or a JSON array),
 * its limits and refusals, the per-key view (never a key), adding, disabling, enabling and
 * deleting one key, copies, edits, and what the relay's routing table loads from it.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { and, asc, eq } from 'drizzle-orm'
import { CHANNEL_KEY_MAX_BYTES, CHANNEL_KEYS_MAX, CHANNEL_MESSAGES, type ChannelKeyView } from '@shared/channel'
import { CHANNEL_STATUS, CHANNEL_TYPE } from '@shared/channel-type'
import { inEnglish, renderMessage, withValues } from '@shared/messages'
import { ROLE } from '@shared/user'
import { loadRoutableChannels } from '@/db/stores/channels'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'

const KEYS = ['sk-pool-zero-0000000000000000aaaa', 'sk-pool-one-11111111111111111bbbb', 'sk-pool-two-22222222222222222cccc']
const ZH = { 'accept-language': 'zh-CN,zh;q=0.9' }

/** A service-account key as Google issues it (the private key need not be real to be stored). */
const serviceAccount = (name: string) => ({
	type: 'service_account', project_id: `project-${name}`, private_key_id: `${name}-key-id-0123456789abcdef`,
	private_key: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n', client_email: `${name}@project.iam.gserviceaccount.com`,
	token_uri: 'https://oauth2.googleapis.com/token',
})

for (const target of databaseTargets()) {
	describe(`multi-key channels on ${target.dialect}`, () => {
		let ferry: TestApp
		let admin: Caller
		let root: Caller
		let notifications: number
		beforeEach(async () => {
			ferry = await createTestApp(target)
			admin = await ferry.createUser('admin', ROLE.admin)
			root = await ferry.loginRoot()
			notifications = 0
			ferry.dependencies.changes.subscribe('channels', () => notifications++)
		})
		afterEach(() => ferry.close())

		const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => ferry.call(method, path, { as: admin, body, headers })
		const create = (fields: Record<string, unknown> = {}, headers?: Record<string, string>) =>
			call('POST', '/api/channel/', { type: CHANNEL_TYPE.openai, name: 'pool', mode: 'multi_key', key: KEYS.join('\n'), models: 'gpt-4o', ...fields }, headers)
		async function createPool(fields: Record<string, unknown> = {}): Promise<number> {
			const answer = await create(fields)
			if (!answer.body.success) throw new Error(`creating a channel failed: ${answer.body.message}`)
			return answer.body.data[0].id
		}
		const keysOf = async (id: number): Promise<ChannelKeyView[]> => (await call('GET', `/api/channel/${id}`)).body.data.keys
		async function storedKeys(id: number) {
			const { channelKeys } = ferry.store.tables
			return ferry.store.db.select().from(channelKeys).where(eq(channelKeys.channelId, id)).orderBy(asc(channelKeys.position))
		}
		async function storedChannel(id: number) {
			const { channels } = ferry.store.tables
			const [row] = await ferry.store.db.select().from(channels).where(eq(channels.id, id))
			return row!
		}
		const routable = async (id: number) => (await loadRoutableChannels(ferry.store, ferry.dependencies.secrets)).find((channel) => channel.id === id)
		const noKeyIn = (answer: unknown) => {
			const text = JSON.stringify(answer)
			for (const key of KEYS) expect(text).not.toContain(key)
		}

		describe('creating', () => {
			test('stores one channel holding every distinct key line, sealed, and says how many repeats it left out', async () => {
				const answer = await create({ key: `${KEYS[0]}\n\n ${KEYS[1]} \n${KEYS[0]}\n${KEYS[2]}\n${KEYS[1]}\n`, multi_key_mode: 'polling' })
				expect(answer.status).toBe(200)
				expect(answer.body.success).toBe(true)
				expect(answer.body.message).toBe('2 duplicate keys left out')
				expect(answer.body.data).toHaveLength(1)
				expect(answer.body.data[0]).toMatchObject({
					name: 'pool', key: '', mode: 'multi_key', multi_key_mode: 'polling', key_counts: { total: 3, enabled: 3, manually_disabled: 0, auto_disabled: 0 },
				})
				noKeyIn(answer.body)
				const id = answer.body.data[0].id
				const rows = await storedKeys(id)
				expect(rows.map((row) => row.position)).toEqual([0, 1, 2])
				expect(rows.map((row) => ferry.dependencies.secrets.decrypt(row.key))).toEqual(KEYS)
				for (const row of rows) for (const key of KEYS) expect(row.key).not.toContain(key)
				expect(rows.map((row) => row.digest)).toEqual(KEYS.map((key) => ferry.dependencies.secrets.digest(key)))
				// The channel's own key column holds a sealed copy of key #0 for readers of one key.
				expect(ferry.dependencies.secrets.decrypt((await storedChannel(id)).key)).toBe(KEYS[0]!)
				expect(notifications).toBe(1)
			})

			test('shows each key by index, masked tail and health, and never a key, in the channel and (as counts) in the list', async () => {
				const id = await createPool()
				const detail = await call('GET', `/api/channel/${id}`)
				expect(detail.body.data.keys).toEqual(KEYS.map((key, index) => ({
					index, hint: `…${key.slice(-4)}`, status: 1, status_reason: '', status_time: 0, last_error: '', response_time: 0, test_time: 0,
				})))
				noKeyIn(detail.body)
				const list = await call('GET', '/api/channel/?p=1&page_size=10')
				const item = list.body.data.items.find((channel: { id: number }) => channel.id === id)
				expect(item).toMatchObject({ mode: 'multi_key', key_counts: { total: 3, enabled: 3 } })
				expect(item.keys).toBeUndefined()
				noKeyIn(list.body)
				const tagged = await call('GET', '/api/channel/?p=1&page_size=10&tag_mode=true')
				noKeyIn(tagged.body)
				const single = await call('POST', '/api/channel/', { type: 1, name: 'one', key: 'sk-single-key-000000000', models: 'gpt-4o' })
				expect(single.body.data[0]).toMatchObject({ mode: 'single', key_counts: null })
				expect((await call('GET', `/api/channel/${single.body.data[0].id}`)).body.data.keys).toEqual([])
			})

			test('takes Vertex AI service accounts as a JSON array, and names the element or line that is not one', async () => {
				const accounts = [serviceAccount('first'), serviceAccount('second')]
				const answer = await create({ type: CHANNEL_TYPE.vertex, key: JSON.stringify(accounts), models: 'gemini-1.5-pro' })
				expect(answer.body.success).toBe(true)
				const id = answer.body.data[0].id
				expect((await keysOf(id)).map((key) => key.hint)).toEqual(['…cdef', '…cdef'])
				const rows = await storedKeys(id)
				expect(rows.map((row) => JSON.parse(ferry.dependencies.secrets.decrypt(row.key)).client_email)).toEqual(accounts.map((account) => account.client_email))
				expect(JSON.stringify(answer.body)).not.toContain('BEGIN PRIVATE KEY')

				const pretty = await create({ type: CHANNEL_TYPE.vertex, name: 'one-account', key: JSON.stringify(serviceAccount('pretty'), null, 2), models: 'gemini-1.5-pro' })
				expect(pretty.body.success).toBe(true)
				expect(pretty.body.data[0].key_counts.total).toBe(1)

				const badElement = await create({ type: CHANNEL_TYPE.vertex, key: JSON.stringify([serviceAccount('ok'), { project_id: 'p' }]), models: 'gemini-1.5-pro' })
				expect(badElement.status).toBe(400)
				expect(badElement.body).toMatchObject({ success: false })
				expect(badElement.body.message).toBe(inEnglish(withValues(CHANNEL_MESSAGES.vertexKeyElementInvalid, { element: 2, max: CHANNEL_KEY_MAX_BYTES })))
				const badLine = await create({ type: CHANNEL_TYPE.vertex, key: `${JSON.stringify(serviceAccount('a'))}\n${JSON.stringify(serviceAccount('b'))}\n{"project_id": "broken"`, models: 'gemini-1.5-pro' })
				expect(badLine.status).toBe(400)
				expect(badLine.body.message).toBe(inEnglish(withValues(CHANNEL_MESSAGES.vertexKeyLineInvalid, { line: 3, max: CHANNEL_KEY_MAX_BYTES })))
				const zh = await create({ type: CHANNEL_TYPE.vertex, key: 'not json', models: 'gemini-1.5-pro' }, ZH)
				expect(zh.body.message).toBe(renderMessage('zh', withValues(CHANNEL_MESSAGES.vertexKeyLineInvalid, { line: 1, max: CHANNEL_KEY_MAX_BYTES })))
				expect(zh.body.message).toContain('第 1 行')
			})

			test.each([
				['an array with a number in it', '["sk-a-000000000000", 5]', withValues(CHANNEL_MESSAGES.keyElementInvalid, { element: 2 })],
				['text that starts like an array', '[sk-a-000000000000, sk-b-000000000000', CHANNEL_MESSAGES.keyArrayInvalid],
				['a key over 16 KB', `sk-short-000000000000\n${'k'.repeat(CHANNEL_KEY_MAX_BYTES + 1)}`, withValues(CHANNEL_MESSAGES.keyLineTooLong, { line: 2, max: CHANNEL_KEY_MAX_BYTES })],
				['a JSON key over 16 KB', JSON.stringify(['sk-a-000000000000', 'x'.repeat(CHANNEL_KEY_MAX_BYTES + 1)]), withValues(CHANNEL_MESSAGES.keyElementTooLong, { element: 2, max: CHANNEL_KEY_MAX_BYTES })],
				['10 001 keys', Array.from({ length: CHANNEL_KEYS_MAX + 1 }, (_, index) => `sk-many-${index}`).join('\n'), withValues(CHANNEL_MESSAGES.keysTooMany, { max: CHANNEL_KEYS_MAX, count: CHANNEL_KEYS_MAX + 1 })],
				['only blank lines', '\n \n', CHANNEL_MESSAGES.nameAndKeyRequired],
			])('refuses %s with a 400 naming the problem, storing nothing', async (_case, key, message) => {
				const answer = await create({ key })
				expect(answer.status).toBe(400)
				expect(answer.body).toEqual({ success: false, message: inEnglish(message) })
				expect((await call('GET', '/api/channel/?p=1&page_size=10')).body.data.total).toBe(0)
			})

			test('takes exactly 10 000 keys, repeats aside', async () => {
				const keys = Array.from({ length: CHANNEL_KEYS_MAX }, (_, index) => `sk-many-key-${index}`)
				const answer = await create({ key: [...keys, keys[0]].join('\n') })
				expect(answer.body.success).toBe(true)
				expect(answer.body.data[0].key_counts.total).toBe(CHANNEL_KEYS_MAX)
				expect(answer.body.message).toBe('1 duplicate key left out')
			})

			test('refuses an unknown multi-key mode in the caller\'s language', async () => {
				const answer = await create({ multi_key_mode: 'round-robin' })
				expect(answer.status).toBe(400)
				expect(answer.body.message).toBe(inEnglish(CHANNEL_MESSAGES.multiKeyModeInvalid))
				const zh = await create({ multi_key_mode: 'round-robin' }, ZH)
				expect(zh.body.message).toBe(CHANNEL_MESSAGES.multiKeyModeInvalid)
			})

			test('keeps batch mode as it was: one channel per key', async () => {
				const answer = await create({ mode: 'batch' })
				expect(answer.body.data.map((channel: { name: string; mode: string }) => [channel.name, channel.mode])).toEqual([['pool', 'single'], ['pool-2', 'single'], ['pool-3', 'single']])
			})

			test('copies a multi-key channel with its keys, at the same indexes and statuses, without sending them', async () => {
				const source = await createPool()
				await call('PUT', `/api/channel/${source}/keys/1`, { status: 2 })
				await call('DELETE', `/api/channel/${source}/keys/0`)
				const answer = await call('POST', '/api/channel/', { type: 1, name: 'pool-copy', key: '', copy_from: source, models: 'gpt-4o' })
				expect(answer.body.success).toBe(true)
				const copy = answer.body.data[0].id
				expect(answer.body.data[0]).toMatchObject({ mode: 'multi_key', key_counts: { total: 2, enabled: 1, manually_disabled: 1 } })
				expect((await keysOf(copy)).map((key) => [key.index, key.status])).toEqual([[1, 2], [2, 1]])
				expect((await storedKeys(copy)).map((row) => ferry.dependencies.secrets.decrypt(row.key))).toEqual([KEYS[1]!, KEYS[2]!])
				// Indexes go on after the source's: #0 was deleted there and is not given again.
				const added = await call('POST', `/api/channel/${copy}/keys`, { key: 'sk-after-copy-000000000' })
				expect(added.body.data.indexes).toEqual([3])
			})
		})

		describe('managing keys', () => {
			test('adds keys after the last index, leaving out repeats of stored keys, and never gives a deleted index again', async () => {
				const id = await createPool()
				notifications = 0
				const added = await call('POST', `/api/channel/${id}/keys`, { key: `${KEYS[1]}\nsk-pool-three-3333333333333dddd\nsk-pool-three-3333333333333dddd` })
				expect(added.body).toEqual({ success: true, message: '1 key added, 2 duplicates left out', data: { indexes: [3], duplicates: 2 } })
				expect(notifications).toBe(1)
				expect((await call('DELETE', `/api/channel/${id}/keys/3`)).body).toEqual({ success: true, message: '' })
				const again = await call('POST', `/api/channel/${id}/keys`, { key: 'sk-pool-three-3333333333333dddd' })
				expect(again.body.data).toEqual({ indexes: [4], duplicates: 0 })
				expect((await keysOf(id)).map((key) => key.index)).toEqual([0, 1, 2, 4])
				expect((await routable(id))!.keys.map((key) => key.index)).toEqual([0, 1, 2, 4])
			})

			test('refuses more keys than a channel holds, counting the stored ones', async () => {
				const id = await createPool()
				const keys = Array.from({ length: CHANNEL_KEYS_MAX - 2 }, (_, index) => `sk-more-${index}`)
				const refused = await call('POST', `/api/channel/${id}/keys`, { key: keys.join('\n') })
				expect(refused.status).toBe(400)
				expect(refused.body.message).toBe(inEnglish(withValues(CHANNEL_MESSAGES.keysTooMany, { max: CHANNEL_KEYS_MAX, count: CHANNEL_KEYS_MAX + 1 })))
				expect(await storedKeys(id)).toHaveLength(3)
				expect((await call('POST', `/api/channel/${id}/keys`, { key: keys.slice(1).join('\n') })).body.success).toBe(true)
				expect(await storedKeys(id)).toHaveLength(CHANNEL_KEYS_MAX)
			}, 30_000) // ten thousand sealed keys written and read back: seconds on a busy Postgres

			test('disables a key by hand with its reason and time, takes it out of routing, and enables it again', async () => {
				const id = await createPool()
				const disabled = await call('PUT', `/api/channel/${id}/keys/1`, { status: 2 })
				expect(disabled.body.success).toBe(true)
				expect(disabled.body.data).toMatchObject({ index: 1, status: 2, status_reason: 'disabled by an administrator' })
				expect(Math.abs(disabled.body.data.status_time - Date.now() / 1000)).toBeLessThan(60)
				const zh = await call('GET', `/api/channel/${id}`, undefined, ZH)
				expect(zh.body.data.keys[1].status_reason).toBe('被管理员禁用')
				expect((await routable(id))!.keys).toEqual([{ index: 0, key: KEYS[0]! }, { index: 2, key: KEYS[2]! }])
				const enabled = await call('PUT', `/api/channel/${id}/keys/1`, { status: '1' })
				expect(enabled.body.data).toMatchObject({ index: 1, status: 1, status_reason: '', status_time: 0 })
				expect((await routable(id))!.keys.map((key) => key.index)).toEqual([0, 1, 2])
				const { logs } = ferry.store.tables
				const audit = await ferry.store.db.select({ content: logs.content }).from(logs).where(eq(logs.type, 3))
				expect(audit.map((line) => line.content)).toContain(`admin admin edited channel #${id} "pool": key #1 disabled`)
			})

			test('keeps one enabled key on an enabled channel and at least one key on any, with clear refusals', async () => {
				const id = await createPool({ key: `${KEYS[0]}\n${KEYS[1]}` })
				await call('PUT', `/api/channel/${id}/keys/0`, { status: 2 })
				const lastEnabled = await call('PUT', `/api/channel/${id}/keys/1`, { status: 2 })
				expect(lastEnabled.body).toEqual({ success: false, message: inEnglish(CHANNEL_MESSAGES.lastEnabledKey) })
				expect((await call('DELETE', `/api/channel/${id}/keys/1`)).body.message).toBe(inEnglish(CHANNEL_MESSAGES.lastEnabledKey))
				// A disabled channel may lose its enabled keys, but never its last key.
				await call('PUT', '/api/channel/', { id, status: 2 })
				expect((await call('DELETE', `/api/channel/${id}/keys/1`)).body.success).toBe(true)
				expect((await call('DELETE', `/api/channel/${id}/keys/0`)).body).toEqual({ success: false, message: inEnglish(CHANNEL_MESSAGES.lastKey) })
				expect((await call('DELETE', `/api/channel/${id}/keys/0`, undefined, ZH)).body.message).toBe(CHANNEL_MESSAGES.lastKey)
			})

			test('deleting key #0 moves the channel\'s copy of a key to the lowest left', async () => {
				const id = await createPool()
				await call('DELETE', `/api/channel/${id}/keys/0`)
				expect(ferry.dependencies.secrets.decrypt((await storedChannel(id)).key)).toBe(KEYS[1]!)
				expect((await routable(id))!.key).toBe(KEYS[1]!)
			})

			test.each([
				['an unknown index', 'PUT', '/keys/9', { status: 2 }, 200, withValues(CHANNEL_MESSAGES.keyNotFound, { index: 9 })],
				['a negative index', 'PUT', '/keys/-1', { status: 2 }, 400, CHANNEL_MESSAGES.keyIndexInvalid],
				['an index that is no number', 'DELETE', '/keys/first', undefined, 400, CHANNEL_MESSAGES.keyIndexInvalid],
				['a status other than enabled or disabled', 'PUT', '/keys/0', { status: 3 }, 400, CHANNEL_MESSAGES.keyStatusInvalid],
				['no key to add', 'POST', '/keys', { key: '  ' }, 400, CHANNEL_MESSAGES.nameAndKeyRequired],
				['a malformed key list', 'POST', '/keys', { key: '[1, 2' }, 400, CHANNEL_MESSAGES.keyArrayInvalid],
			])('answers %s with a clear refusal, never a 500', async (_case, method, path, body, status, message) => {
				const id = await createPool()
				const answer = await call(method, `/api/channel/${id}${path}`, body)
				expect(answer.status).toBe(status)
				expect(answer.body).toMatchObject({ success: false, message: inEnglish(message) })
			})

			test('refuses key calls on a single-key channel and on a channel that does not exist', async () => {
				const single = (await call('POST', '/api/channel/', { type: 1, name: 'one', key: 'sk-single-key-000000000', models: 'gpt-4o' })).body.data[0].id
				expect((await call('POST', `/api/channel/${single}/keys`, { key: 'sk-other-0000000000' })).body.message).toBe(inEnglish(CHANNEL_MESSAGES.notMultiKey))
				expect((await call('PUT', `/api/channel/${single}/keys/0`, { status: 2 })).body.message).toBe(inEnglish(CHANNEL_MESSAGES.notMultiKey))
				expect((await call('DELETE', `/api/channel/999/keys/0`)).body.message).toBe(inEnglish(CHANNEL_MESSAGES.notFound))
			})

			test('deleting a channel deletes its keys', async () => {
				const id = await createPool()
				await call('DELETE', `/api/channel/${id}`)
				expect(await storedKeys(id)).toEqual([])
			})
		})

		describe('editing', () => {
			test('changes the multi-key mode, refuses a key (keys have calls of their own) and keeps the mode', async () => {
				const id = await createPool()
				const edited = await call('PUT', '/api/channel/', { id, multi_key_mode: 'polling', mode: 'single' })
				expect(edited.body.data).toMatchObject({ mode: 'multi_key', multi_key_mode: 'polling', key_counts: { total: 3 } })
				expect((await routable(id))!.multiKeyMode).toBe('polling')
				const withKey = await call('PUT', '/api/channel/', { id, key: 'sk-replacement-000000000' })
				expect(withKey.status).toBe(400)
				expect(withKey.body.message).toBe(inEnglish(CHANNEL_MESSAGES.multiKeyKeysApart))
			})

			test('lets only the super admin send a multi-key channel\'s keys to a new base URL', async () => {
				const id = await createPool()
				const moved = await call('PUT', '/api/channel/', { id, base_url: 'https://elsewhere.example' })
				expect(moved.status).toBe(403)
				expect(moved.body.message).toBe(inEnglish(CHANNEL_MESSAGES.multiKeyDestinationRootOnly))
				const byRoot = await ferry.call('PUT', '/api/channel/', { as: root, body: { id, base_url: 'https://elsewhere.example' } })
				expect(byRoot.body.data.base_url).toBe('https://elsewhere.example')
			})

			test('enabling by hand a channel none of whose keys is enabled brings its auto-disabled keys back', async () => {
				const id = await createPool({ key: `${KEYS[0]}\n${KEYS[1]}` })
				const { channelKeys } = ferry.store.tables
				await ferry.store.db.update(channelKeys).set({ status: CHANNEL_STATUS.autoDisabled }).where(eq(channelKeys.channelId, id))
				await call('PUT', '/api/channel/', { id, status: 2 })
				expect(await routable(id)).toBeUndefined()
				await call('PUT', '/api/channel/', { id, status: 1 })
				expect((await routable(id))!.keys.map((key) => key.index)).toEqual([0, 1])
			})
		})

		describe('what the relay loads', () => {
			test('a multi-key channel\'s enabled keys in index order, the first as its key; none enabled: left out', async () => {
				const id = await createPool()
				await call('PUT', `/api/channel/${id}/keys/0`, { status: 2 })
				const channel = await routable(id)
				expect(channel).toMatchObject({ mode: 'multi_key', multiKeyMode: 'random', key: KEYS[1], keys: [{ index: 1, key: KEYS[1] }, { index: 2, key: KEYS[2] }] })
				const { channelKeys } = ferry.store.tables
				await ferry.store.db.update(channelKeys).set({ status: CHANNEL_STATUS.autoDisabled }).where(eq(channelKeys.channelId, id))
				expect(await routable(id)).toBeUndefined()
			})

			test('a single-key channel has its own key as index 0', async () => {
				const single = (await call('POST', '/api/channel/', { type: 1, name: 'one', key: 'sk-single-key-000000000', models: 'gpt-4o' })).body.data[0].id
				expect(await routable(single)).toMatchObject({ mode: 'single', key: 'sk-single-key-000000000', keys: [{ index: 0, key: 'sk-single-key-000000000' }] })
			})

			test('leaves out a key that cannot be decrypted, and the channel when none can', async () => {
				const id = await createPool()
				const { channelKeys } = ferry.store.tables
				await ferry.store.db.update(channelKeys).set({ key: 'not-a-sealed-key' }).where(and(eq(channelKeys.channelId, id), eq(channelKeys.position, 0)))
				expect((await routable(id))!.keys.map((key) => key.index)).toEqual([1, 2])
				await ferry.store.db.update(channelKeys).set({ key: 'not-a-sealed-key' }).where(eq(channelKeys.channelId, id))
				const unreadable: number[] = []
				expect((await loadRoutableChannels(ferry.store, ferry.dependencies.secrets, (channelId) => unreadable.push(channelId))).map((channel) => channel.id)).not.toContain(id)
				expect(unreadable).toEqual([id])
			})
		})
	})
}
