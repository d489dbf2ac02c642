import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { asc, eq } from 'drizzle-orm'
import { CHANNEL_GROUP_NAME_MAX_LENGTH, CHANNEL_MESSAGES, CHANNEL_MODEL_NAME_MAX_LENGTH, TAG_STATUS } from '@shared/channel'
import { CHANNEL_FIRST_TOKEN_TIMEOUT_MAX_SECONDS, CHANNEL_SYSTEM_PROMPT_MAX_LENGTH } from '@shared/channel-setting'
import { CHANNEL_STATUS, CHANNEL_TYPE, DEFAULT_AZURE_API_VERSION, DEFAULT_XUNFEI_VERSION } from '@shared/channel-type'
import { ROLE } from '@shared/user'
import { loadRoutableChannels, markChannelAutoDisabled } from '@/db/stores/channels'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { inEnglish, withValues } from '@shared/messages'
import { statusReason } from '@shared/messages/channel-status'

const UNAUTHORIZED_REASON = statusReason('upstream.unauthorized', { message: 'bad key' })
/** Random CJK text: it compresses badly, as a long index entry must to overflow a Postgres page. */
const scrambled = (length: number) => Array.from({ length }, () => String.fromCharCode(0x4e00 + Math.floor(Math.random() * 0x5000))).join('')

for (const target of databaseTargets()) {
	describe(`channels on ${target.dialect}`, () => {
		let ferry: TestApp
		let admin: Caller
		let notifications: number
		beforeEach(async () => {
			ferry = await createTestApp(target)
			admin = await ferry.createUser('admin', ROLE.admin)
			notifications = 0
			ferry.dependencies.changes.subscribe('channels', () => notifications++)
		})
		afterEach(() => ferry.close())

		const call = (method: string, path: string, body?: unknown) => ferry.call(method, path, { as: admin, body })
		const create = (fields: Record<string, unknown> = {}) =>
			call('POST', '/api/channel/', { type: CHANNEL_TYPE.openai, name: 'main', key: 'sk-main', models: 'gpt-4o', ...fields })
		async function createOne(fields: Record<string, unknown> = {}): Promise<number> {
			const answer = await create(fields)
			if (!answer.body.success) throw new Error(`creating a channel failed: ${answer.body.message}`)
			return answer.body.data[0].id
		}
		async function storedRow(id: number) {
			const { channels } = ferry.store.tables
			const [row] = await ferry.store.db.select().from(channels).where(eq(channels.id, id))
			return row!
		}
		/** The abilities table as `group/model/channel` plus the columns copied from the channel. */
		async function abilityRows() {
			const { abilities } = ferry.store.tables
			const found = await ferry.store.db.select().from(abilities).orderBy(asc(abilities.channelId), asc(abilities.group), asc(abilities.model))
			return found.map((row) => ({ route: `${row.group}/${row.model}/${row.channelId}`, enabled: row.enabled, priority: row.priority, weight: row.weight, tag: row.tag }))
		}
		const routes = async () => (await abilityRows()).map((row) => row.route)
		const listNames = async (query = '') => (await call('GET', `/api/channel/?${query}`)).body.data.items.map((item: { name?: string; tag?: string }) => item.name ?? `tag:${item.tag}`)

		describe('creating', () => {
			test('stores one channel with the defaults and normal forms of the specification, its key encrypted', async () => {
				const answer = await create({ models: ' gpt-4o, ,o1,gpt-4o ', base_url: 'https://api.example.com/v1//' })
				expect(answer.body.success).toBe(true)
				expect(answer.body.data).toHaveLength(1)
				expect(answer.body.data[0]).toMatchObject({
					name: 'main', key: '', type: 1, models: 'gpt-4o,o1', group: 'default', auto_ban: 1, status: 1,
					base_url: 'https://api.example.com/v1', priority: 0, weight: 0, other: '', other_info: '',
				})
				const row = await storedRow(answer.body.data[0].id)
				expect(row.key).not.toContain('sk-main')
				expect(ferry.dependencies.secrets.decrypt(row.key)).toBe('sk-main')
				expect(notifications).toBe(1)
			})

			test.each([
				[CHANNEL_TYPE.azure, DEFAULT_AZURE_API_VERSION],
				[CHANNEL_TYPE.xunfei, DEFAULT_XUNFEI_VERSION],
				[CHANNEL_TYPE.openai, ''],
			])('fills an empty `other` of type %d with %p', async (type, other) => {
				const answer = await create({ type, other: '' })
				expect(answer.body.data[0].other).toBe(other)
			})

			test('keeps the default `other` when an update sends it empty again', async () => {
				const id = await createOne({ type: CHANNEL_TYPE.azure })
				const answer = await call('PUT', '/api/channel/', { id, other: '' })
				expect(answer.body.data.other).toBe(DEFAULT_AZURE_API_VERSION)
			})

			test('keeps an `other` that was given', async () => {
				const answer = await create({ type: CHANNEL_TYPE.azure, other: '2024-10-21' })
				expect(answer.body.data[0].other).toBe('2024-10-21')
			})

			test('accepts the numbers of a form as text, and a list for models and groups', async () => {
				const answer = await create({ type: '14', priority: '-5', weight: '3', models: ['claude-3', 'claude-3'], group: ['vip', 'default'], auto_ban: false })
				expect(answer.body.data[0]).toMatchObject({ type: 14, priority: -5, weight: 3, models: 'claude-3', group: 'vip,default', auto_ban: 0 })
			})

			test('creates one channel per distinct key line in batch mode, named name, name-2, name-3', async () => {
				const answer = await create({ mode: 'batch', key: 'sk-one\n\n sk-two \nsk-one\nsk-three\n' })
				expect(answer.body.data.map((channel: { name: string }) => channel.name)).toEqual(['main', 'main-2', 'main-3'])
				const keys = await Promise.all(answer.body.data.map(async (channel: { id: number }) => ferry.dependencies.secrets.decrypt((await storedRow(channel.id)).key)))
				expect(keys).toEqual(['sk-one', 'sk-two', 'sk-three'])
				expect(await routes()).toEqual(answer.body.data.map((channel: { id: number }) => `default/gpt-4o/${channel.id}`))
			})

			test('keeps a multi-line key whole in single mode', async () => {
				const id = await createOne({ key: 'line-one\nline-two' })
				expect(ferry.dependencies.secrets.decrypt((await storedRow(id)).key)).toBe('line-one\nline-two')
			})

			test('copies a channel without sending its key: copy_from reuses the key of that channel', async () => {
				const source = await createOne({ key: 'sk-source' })
				const answer = await create({ name: 'main-copy', key: '', copy_from: source })
				expect(answer.body.success).toBe(true)
				const copy = answer.body.data[0].id
				expect(copy).not.toBe(source)
				expect(ferry.dependencies.secrets.decrypt((await storedRow(copy)).key)).toBe('sk-source')
				expect((await create({ key: '', copy_from: 9999 })).body.message).toBe(inEnglish(CHANNEL_MESSAGES.notFound))
			})

			test.each([
				[{ name: '' }, inEnglish(CHANNEL_MESSAGES.nameAndKeyRequired)],
				[{ name: undefined }, inEnglish(CHANNEL_MESSAGES.nameAndKeyRequired)],
				[{ key: '  ' }, inEnglish(CHANNEL_MESSAGES.nameAndKeyRequired)],
				[{ key: undefined }, inEnglish(CHANNEL_MESSAGES.nameAndKeyRequired)],
				[{ mode: 'batch', key: '\n \n' }, inEnglish(CHANNEL_MESSAGES.nameAndKeyRequired)],
				[{ models: undefined }, inEnglish(CHANNEL_MESSAGES.modelsRequired)],
				[{ models: ' , ' }, inEnglish(CHANNEL_MESSAGES.modelsRequired)],
				[{ model_mapping: '{"gpt-4o": ' }, inEnglish(CHANNEL_MESSAGES.modelMappingInvalid)],
				[{ model_mapping: '["gpt-4o"]' }, inEnglish(CHANNEL_MESSAGES.modelMappingInvalid)],
				[{ model_mapping: '{"gpt-4o": 4}' }, inEnglish(CHANNEL_MESSAGES.modelMappingInvalid)],
				[{ model_mapping: '{"gpt-4o": "gpt-4o-2024", "gpt-4o-2024": "gpt-4o"}' }, inEnglish(withValues(CHANNEL_MESSAGES.modelMappingCycle, { cycle: 'gpt-4o → gpt-4o-2024 → gpt-4o' }))],
				[{ model_mapping: '{"a": "b", "b": "c", "c": "b"}' }, inEnglish(withValues(CHANNEL_MESSAGES.modelMappingCycle, { cycle: 'b → c → b' }))],
				[{ status_code_mapping: '{"abc": "500"}' }, inEnglish(CHANNEL_MESSAGES.statusCodeMappingInvalid)],
				[{ status_code_mapping: 'nope' }, inEnglish(CHANNEL_MESSAGES.statusCodeMappingInvalid)],
				[{ setting: '[true]' }, inEnglish(CHANNEL_MESSAGES.settingInvalid)],
				[{ setting: '{"force_format": "yes"}' }, inEnglish(withValues(CHANNEL_MESSAGES.settingBoolean, { key: 'force_format' }))],
				[{ setting: '{"thinking_to_content": 1}' }, inEnglish(withValues(CHANNEL_MESSAGES.settingBoolean, { key: 'thinking_to_content' }))],
				[{ setting: '{"system_prompt": ["be brief"]}' }, inEnglish(withValues(CHANNEL_MESSAGES.settingSystemPrompt, { max: CHANNEL_SYSTEM_PROMPT_MAX_LENGTH }))],
				[{ setting: '{"first_token_timeout_seconds": "30"}' }, inEnglish(withValues(CHANNEL_MESSAGES.settingFirstTokenTimeout, { max: CHANNEL_FIRST_TOKEN_TIMEOUT_MAX_SECONDS }))],
				[{ setting: '{"first_token_timeout_seconds": -1}' }, inEnglish(withValues(CHANNEL_MESSAGES.settingFirstTokenTimeout, { max: CHANNEL_FIRST_TOKEN_TIMEOUT_MAX_SECONDS }))],
				[{ setting: '{"first_token_timeout_seconds": 3601}' }, inEnglish(withValues(CHANNEL_MESSAGES.settingFirstTokenTimeout, { max: CHANNEL_FIRST_TOKEN_TIMEOUT_MAX_SECONDS }))],
				[{ setting: '{"proxy": "http://proxy.example:8080"}' }, inEnglish(CHANNEL_MESSAGES.settingProxyUnsupported)],
				[{ priority: 1.5 }, inEnglish(CHANNEL_MESSAGES.priorityInteger)],
				[{ priority: 'high' }, inEnglish(CHANNEL_MESSAGES.priorityInteger)],
				[{ priority: -1000 }, inEnglish(CHANNEL_MESSAGES.priorityMinimum)],
				[{ weight: -1 }, inEnglish(CHANNEL_MESSAGES.weightInteger)],
				[{ weight: 0.5 }, inEnglish(CHANNEL_MESSAGES.weightInteger)],
				[{ max_input_tokens: -1 }, inEnglish(CHANNEL_MESSAGES.maxInputTokensInvalid)],
				[{ max_input_tokens: 'many' }, inEnglish(CHANNEL_MESSAGES.maxInputTokensInvalid)],
				[{ type: 999 }, inEnglish(CHANNEL_MESSAGES.typeUnknown)],
				[{ type: undefined }, inEnglish(CHANNEL_MESSAGES.typeUnknown)],
				[{ status: 7 }, inEnglish(CHANNEL_MESSAGES.statusInvalid)],
				[{ base_url: 'not a url' }, inEnglish(CHANNEL_MESSAGES.baseUrlInvalid)],
				[{ base_url: 'api.example.com/v1' }, inEnglish(CHANNEL_MESSAGES.baseUrlInvalid)],
				[{ base_url: 'https://' }, inEnglish(CHANNEL_MESSAGES.baseUrlInvalid)],
				[{ base_url: 'https://exa mple.com' }, inEnglish(CHANNEL_MESSAGES.baseUrlInvalid)],
				[{ base_url: 'http://[::1' }, inEnglish(CHANNEL_MESSAGES.baseUrlInvalid)],
				[{ base_url: 'ftp://files.example.com' }, inEnglish(CHANNEL_MESSAGES.baseUrlInvalid)],
				[{ base_url: 'file:///etc/passwd' }, inEnglish(CHANNEL_MESSAGES.baseUrlInvalid)],
				[{ base_url: 'javascript:alert(1)' }, inEnglish(CHANNEL_MESSAGES.baseUrlInvalid)],
			])('refuses %j with the message %p', async (fields, message) => {
				const answer = await create(fields)
				expect(answer.status).toBe(400)
				expect(answer.body).toEqual({ success: false, message })
				expect(notifications).toBe(0)
			})

			test('accepts valid mappings and settings as they were written', async () => {
				const answer = await create({ model_mapping: '{"gpt-4o": "gpt-4o-2024-08-06"}', status_code_mapping: '{"429": 503}', setting: '{"force_format": true}' })
				expect(answer.body.data[0]).toMatchObject({ model_mapping: '{"gpt-4o": "gpt-4o-2024-08-06"}', status_code_mapping: '{"429": 503}', setting: '{"force_format": true}' })
			})

			test('keeps keys of the extra setting it does not know, as a setting imported from new-api has them', async () => {
				const setting = '{"system_prompt": "Be brief.", "system_prompt_override": true, "pass_through_body_enabled": false, "vendor_flag": {"x": 1}}'
				const answer = await create({ setting })
				expect(answer.body.data[0]).toMatchObject({ setting })
			})

			test.each([
				['', ''],
				['https://api.example.com/', 'https://api.example.com'],
				['https://api.example.com/v1//', 'https://api.example.com/v1'],
				['https://relay.example:8443/proxy/openai', 'https://relay.example:8443/proxy/openai'],
				['http://[::1]:8080', 'http://[::1]:8080'],
				['http://[2001:db8::1]/v1/', 'http://[2001:db8::1]/v1'],
				['http://10.1.2.3:11434', 'http://10.1.2.3:11434'],
				['https://api.example.com/v1/{model}/chat/completions', 'https://api.example.com/v1/{model}/chat/completions'],
				['wss://spark-api.xf-yun.com', 'wss://spark-api.xf-yun.com'],
			])('accepts the base URL %p and stores it as %p', async (given, stored) => {
				const answer = await create({ base_url: given })
				expect(answer.body.success).toBe(true)
				expect((await storedRow(answer.body.data[0].id)).baseUrl).toBe(stored)
			})

			test('refuses a base URL that does not parse in the console\'s language, on create and on update, and keeps the stored one', async () => {
				const body = { type: CHANNEL_TYPE.openai, name: 'main', key: 'sk-main', models: 'gpt-4o', base_url: 'https//api.example.com' }
				const zh = await ferry.call('POST', '/api/channel/', { as: admin, body, headers: { 'accept-language': 'zh-CN' } })
				expect(zh.status).toBe(400)
				expect(zh.body).toEqual({ success: false, message: CHANNEL_MESSAGES.baseUrlInvalid })
				const id = await createOne({ base_url: 'https://api.example.com' })
				const update = await ferry.call('PUT', '/api/channel/', { as: admin, body: { id, base_url: 'htp:/api.example.com' }, headers: { 'accept-language': 'en' } })
				expect(update.status).toBe(400)
				expect(update.body).toEqual({ success: false, message: 'the base URL must be a full address starting with http:// or https://, e.g. https://api.example.com' })
				expect((await call('PUT', '/api/channel/', { id, base_url: 'mailto:ops@example.com' })).status).toBe(400)
				expect((await storedRow(id)).baseUrl).toBe('https://api.example.com')
			})

			test('refuses an unsupported proxy in the console\'s language', async () => {
				const body = { type: CHANNEL_TYPE.openai, name: 'main', key: 'sk-main', models: 'gpt-4o', setting: '{"proxy": "socks5://127.0.0.1:1080"}' }
				const answer = await ferry.call('POST', '/api/channel/', { as: admin, body, headers: { 'accept-language': 'zh-CN' } })
				expect(answer.status).toBe(400)
				expect(answer.body.message).toBe(CHANNEL_MESSAGES.settingProxyUnsupported)
			})

			test('refuses a model or group name past its length on create, update and a tag edit, and keeps the longest allowed as abilities', async () => {
				const modelTooLong = { success: false, message: inEnglish(CHANNEL_MESSAGES.modelNameTooLong) }
				const groupTooLong = { success: false, message: inEnglish(CHANNEL_MESSAGES.groupNameTooLong) }
				const id = await createOne({ tag: 'pool' })
				for (const [fields, refusal] of [
					[{ models: `gpt-4o,${scrambled(CHANNEL_MODEL_NAME_MAX_LENGTH + 1)}` }, modelTooLong],
					[{ models: [scrambled(3000)] }, modelTooLong],
					[{ group: `default,${scrambled(CHANNEL_GROUP_NAME_MAX_LENGTH + 1)}` }, groupTooLong],
					[{ group: scrambled(3000) }, groupTooLong],
				] as const) {
					expect({ fields, answer: (await create(fields)).body }).toEqual({ fields, answer: refusal })
					expect({ fields, answer: (await call('PUT', '/api/channel/', { id, ...fields })).body }).toEqual({ fields, answer: refusal })
					const tagEdit = 'models' in fields ? { models: fields.models } : { groups: fields.group }
					expect({ fields, answer: (await call('PUT', '/api/channel/tag', { tag: 'pool', ...tagEdit })).body }).toEqual({ fields, answer: refusal })
				}
				const model = scrambled(CHANNEL_MODEL_NAME_MAX_LENGTH)
				const group = scrambled(CHANNEL_GROUP_NAME_MAX_LENGTH)
				const longest = await createOne({ models: model, group })
				const { abilities } = ferry.store.tables
				expect(await ferry.store.db.select({ group: abilities.group, model: abilities.model }).from(abilities).where(eq(abilities.channelId, longest))).toEqual([{ group, model }])
			})
		})

		describe('where a stored key is sent', () => {
			const refusal = { success: false, message: inEnglish(CHANNEL_MESSAGES.keyNeededForNewDestination) }
			const destination = async (id: number) => {
				const row = await storedRow(id)
				return { type: row.type, baseUrl: row.baseUrl, other: row.other, key: ferry.dependencies.secrets.decrypt(row.key) }
			}

			test.each([
				['base URL', { base_url: 'https://catcher.example' }],
				['type', { type: CHANNEL_TYPE.custom }],
				['other (the Vertex AI region names the host)', { other: 'catcher.example/x?' }],
				['type and base URL with an empty key', { type: CHANNEL_TYPE.anthropic, base_url: 'https://catcher.example', key: '' }],
			])('refuses an admin who changes the %s of a saved channel without entering the key', async (_what, change) => {
				const id = await createOne({ type: CHANNEL_TYPE.vertex, key: '{"type":"service_account"}', base_url: 'https://proxy.example', other: 'us-east5' })
				const before = await destination(id)
				const answer = await call('PUT', '/api/channel/', { id, name: 'renamed', ...change })
				expect(answer.status).toBe(403)
				expect(answer.body).toEqual(refusal)
				expect(await destination(id)).toEqual(before)
				expect((await storedRow(id)).name).toBe('main')
			})

			test('lets an admin move a stored key only by entering it again, while other edits and the super admin need no key', async () => {
				const id = await createOne({ type: CHANNEL_TYPE.azure, base_url: 'https://east.example', other: '' })
				const kept = await call('PUT', '/api/channel/', {
					id, type: CHANNEL_TYPE.azure, base_url: 'https://east.example/', other: '', name: 'renamed', models: 'gpt-4o,o1', priority: 3, key: '',
				})
				expect(kept.body).toMatchObject({ success: true, data: { name: 'renamed', base_url: 'https://east.example', other: DEFAULT_AZURE_API_VERSION } })
				expect((await call('PUT', '/api/channel/', { id, base_url: 'https://west.example', other: '2024-10-21' })).body).toEqual(refusal)
				const moved = await call('PUT', '/api/channel/', { id, base_url: 'https://west.example', other: '2024-10-21', key: 'sk-entered-again' })
				expect(moved.body.success).toBe(true)
				expect(await destination(id)).toEqual({ type: CHANNEL_TYPE.azure, baseUrl: 'https://west.example', other: '2024-10-21', key: 'sk-entered-again' })

				const root = await ferry.loginRoot()
				const byRoot = await ferry.call('PUT', '/api/channel/', { as: root, body: { id, type: CHANNEL_TYPE.custom, base_url: 'https://relay.example/v1/chat/completions' } })
				expect(byRoot.body.success).toBe(true)
				expect(await destination(id)).toEqual({ type: CHANNEL_TYPE.custom, baseUrl: 'https://relay.example/v1/chat/completions', other: '2024-10-21', key: 'sk-entered-again' })
			})

			test('makes a copy by an admin go where its source goes, unless the copy brings its own key', async () => {
				const source = await createOne({ key: 'sk-source', base_url: 'https://origin.example', type: CHANNEL_TYPE.openai })
				const sameFields = { name: 'main-copy', key: '', copy_from: source, base_url: 'https://origin.example', other: '' }
				for (const change of [{ base_url: 'https://catcher.example' }, { base_url: '' }, { type: CHANNEL_TYPE.custom }, { other: 'x' }]) {
					const refused = await create({ ...sameFields, ...change })
					expect({ change, status: refused.status, body: refused.body }).toEqual({ change, status: 403, body: refusal })
				}
				expect((await call('GET', '/api/channel/')).body.data.total).toBe(1)
				expect(notifications).toBe(1)

				const copy = await create(sameFields)
				expect(await destination(copy.body.data[0].id)).toEqual({ type: CHANNEL_TYPE.openai, baseUrl: 'https://origin.example', other: '', key: 'sk-source' })
				const ownKey = await create({ ...sameFields, base_url: 'https://mine.example', key: 'sk-mine' })
				expect(await destination(ownKey.body.data[0].id)).toMatchObject({ baseUrl: 'https://mine.example', key: 'sk-mine' })
				const root = await ferry.loginRoot()
				const byRoot = await ferry.call('POST', '/api/channel/', { as: root, body: { type: CHANNEL_TYPE.openai, models: 'gpt-4o', ...sameFields, base_url: 'https://relay.example' } })
				expect(await destination(byRoot.body.data[0].id)).toMatchObject({ baseUrl: 'https://relay.example', key: 'sk-source' })
			})
		})

		describe('reading', () => {
			test('never answers a key or its ciphertext, on any read', async () => {
				const id = await createOne({ key: 'sk-very-secret', tag: 'team' })
				await createOne({ name: 'other', key: 'sk-other-secret' })
				const ciphertext = (await storedRow(id)).key
				const answers = await Promise.all([
					call('GET', `/api/channel/${id}`),
					call('GET', '/api/channel/'),
					call('GET', '/api/channel/?tag_mode=true'),
					call('GET', '/api/channel/search?keyword=main'),
					call('GET', '/api/channel/search?keyword=&tag_mode=true'),
					call('PUT', '/api/channel/', { id, priority: 2 }),
				])
				for (const answer of answers) {
					expect(answer.body.success).toBe(true)
					const text = JSON.stringify(answer.body)
					expect(text).not.toContain('secret')
					expect(text).not.toContain(ciphertext)
				}
				expect(answers[0]!.body.data).toMatchObject({ id, key: '', name: 'main', tag: 'team' })
			})

			test('answers an unknown channel with the catalogue message', async () => {
				const answer = await call('GET', '/api/channel/4242')
				expect(answer.body).toEqual({ success: false, message: inEnglish(CHANNEL_MESSAGES.notFound) })
			})

			test('refuses ordinary users', async () => {
				const user = await ferry.createUser('someone')
				expect((await ferry.call('GET', '/api/channel/', { as: user })).status).toBe(403)
			})

			test('lists every distinct configured model once, sorted, as {id}', async () => {
				await createOne({ models: 'o1,gpt-4o' })
				await createOne({ name: 'b', models: 'claude-3,gpt-4o' })
				const answer = await call('GET', '/api/channel/models')
				expect(answer.body.data).toEqual([{ id: 'claude-3' }, { id: 'gpt-4o' }, { id: 'o1' }])
			})
		})

		describe('listing', () => {
			beforeEach(async () => {
				await createOne({ name: 'low-old', priority: 0 })
				await createOne({ name: 'high', priority: 10 })
				await createOne({ name: 'low-new', priority: 0 })
			})

			test('orders by priority then newest first, or by id alone with id_sort', async () => {
				expect(await listNames()).toEqual(['high', 'low-new', 'low-old'])
				expect(await listNames('id_sort=true')).toEqual(['low-new', 'high', 'low-old'])
			})

			test('pages with p and page_size', async () => {
				const answer = await call('GET', '/api/channel/?p=2&page_size=2')
				expect(answer.body.data).toMatchObject({ page: 2, page_size: 2, total: 3 })
				expect(answer.body.data.items.map((item: { name: string }) => item.name)).toEqual(['low-old'])
			})

			test('folds tagged channels into one row per tag in tag mode, at the place of its first channel', async () => {
				const first = await createOne({ name: 'pool-a', tag: 'pool', priority: 5, weight: 2, models: 'a', group: 'vip' })
				const second = await createOne({ name: 'pool-b', tag: 'pool', priority: 5, weight: 3, models: 'b' })
				await call('PUT', '/api/channel/', { id: second, status: CHANNEL_STATUS.manuallyDisabled })
				expect(await listNames('tag_mode=true')).toEqual(['high', 'tag:pool', 'low-new', 'low-old'])
				const answer = await call('GET', '/api/channel/?tag_mode=true&page_size=2')
				expect(answer.body.data.total).toBe(4)
				const row = answer.body.data.items[1]
				expect(row).toMatchObject({
					kind: 'tag', tag: 'pool', status: TAG_STATUS.mixed, channel_count: 2, enabled_count: 1,
					manually_disabled_count: 1, auto_disabled_count: 0, priority: 5, weight: null, models: 'b,a', group: 'default,vip',
				})
				expect(row.channels.map((channel: { id: number; key: string }) => [channel.id, channel.key])).toEqual([[second, ''], [first, '']])
			})
		})

		describe('searching', () => {
			let alpha: number
			let beta: number
			beforeEach(async () => {
				alpha = await createOne({ name: 'Alpha relay', key: 'sk-findme', base_url: 'https://alpha.example.com', models: 'gpt-4o,gpt-4o-mini', group: 'default,vip' })
				beta = await createOne({ name: 'beta', base_url: 'https://beta.example.org', models: 'claude-3-haiku', group: 'vip2' })
			})
			const found = async (query: string) => (await call('GET', `/api/channel/search?${query}`)).body.data.items.map((item: { id: number }) => item.id)

			test('matches the id exactly, or the name or base URL in part, ignoring case', async () => {
				expect(await found(`keyword=${beta}`)).toEqual([beta])
				expect(await found('keyword=alpha')).toEqual([alpha])
				expect(await found('keyword=example.org')).toEqual([beta])
				expect(await found('keyword=')).toEqual([beta, alpha])
			})

			test('does not match keys, which are stored encrypted', async () => {
				expect(await found('keyword=sk-findme')).toEqual([])
			})

			test('filters by part of a model name and by a whole group', async () => {
				expect(await found('model=mini')).toEqual([alpha])
				expect(await found('model=claude')).toEqual([beta])
				expect(await found('group=vip')).toEqual([alpha])
				expect(await found('group=vip2')).toEqual([beta])
				expect(await found('group=vip&model=claude')).toEqual([])
			})

			test('answers tag rows in tag mode', async () => {
				await call('POST', '/api/channel/batch/tag', { ids: [alpha, beta], tag: 'both' })
				const answer = await call('GET', '/api/channel/search?keyword=example&tag_mode=true')
				expect(answer.body.data.items).toHaveLength(1)
				expect(answer.body.data.items[0]).toMatchObject({ kind: 'tag', tag: 'both', channel_count: 2 })
			})
		})

		describe('updating', () => {
			test('keeps the stored key when the key is empty or absent, and replaces it when given', async () => {
				const id = await createOne()
				const before = (await storedRow(id)).key
				expect((await call('PUT', '/api/channel/', { id, key: '', name: 'renamed' })).body.data).toMatchObject({ name: 'renamed', key: '' })
				expect((await call('PUT', '/api/channel/', { id, priority: 3 })).body.success).toBe(true)
				expect((await storedRow(id)).key).toBe(before)
				await call('PUT', '/api/channel/', { id, key: 'sk-rotated' })
				expect(ferry.dependencies.secrets.decrypt((await storedRow(id)).key)).toBe('sk-rotated')
			})

			test('applies a full update and rewrites the abilities from it', async () => {
				const id = await createOne({ models: 'a', group: 'default' })
				const answer = await call('PUT', '/api/channel/', {
					id, type: CHANNEL_TYPE.azure, name: 'main', key: 'sk-azure', models: 'b,c', group: 'vip, default', other: '', base_url: 'https://x.example/',
					priority: 4, weight: 7, tag: 't', model_mapping: '', status: 1, auto_ban: 0,
				})
				expect(answer.body.data).toMatchObject({ type: 3, other: DEFAULT_AZURE_API_VERSION, base_url: 'https://x.example', models: 'b,c', group: 'vip,default', auto_ban: 0 })
				expect(await abilityRows()).toEqual(['default/b', 'default/c', 'vip/b', 'vip/c'].map((route) => ({ route: `${route}/${id}`, enabled: true, priority: 4, weight: 7, tag: 't' })))
			})

			test('disables by hand with a reason and time, and enabling clears them', async () => {
				const id = await createOne()
				const disabled = await call('PUT', '/api/channel/', { id, status: CHANNEL_STATUS.manuallyDisabled })
				expect(disabled.body.data.status).toBe(2)
				const info = JSON.parse(disabled.body.data.other_info)
				expect(info.status_reason).toBe('disabled by an administrator')
				expect(Math.abs(info.status_time - Date.now() / 1000)).toBeLessThan(60)
				expect((await abilityRows()).map((row) => row.enabled)).toEqual([false])
				const enabled = await call('PUT', '/api/channel/', { id, status: CHANNEL_STATUS.enabled })
				expect(enabled.body.data).toMatchObject({ status: 1, other_info: '' })
				expect((await abilityRows()).map((row) => row.enabled)).toEqual([true])
			})

			test('takes part in the scheduled test by default; an update turns that off and on, an update without it leaves it, and a value not true or false is refused', async () => {
				const id = await createOne()
				expect((await call('GET', `/api/channel/${id}`)).body.data).toMatchObject({ scheduled_test_enabled: true, health_failures: 0 })
				expect((await call('PUT', '/api/channel/', { id, scheduled_test_enabled: false })).body.data.scheduled_test_enabled).toBe(false)
				expect((await storedRow(id)).scheduledTestEnabled).toBe(false)
				expect((await call('PUT', '/api/channel/', { id, priority: 2 })).body.data.scheduled_test_enabled).toBe(false)
				const refused = await ferry.call('PUT', '/api/channel/', { as: admin, body: { id, scheduled_test_enabled: 'no' }, headers: { 'accept-language': 'zh-CN' } })
				expect(refused.status).toBe(400)
				expect(refused.body).toMatchObject({ success: false, message: '参与定时测试必须是 true 或 false' })
				expect((await call('PUT', '/api/channel/', { id, scheduled_test_enabled: true })).body.data.scheduled_test_enabled).toBe(true)
				expect((await create({ name: 'unscheduled', scheduled_test_enabled: false })).body.data[0].scheduled_test_enabled).toBe(false)
			})

			test('sets priority and weight alone, flooring a negative weight at 0', async () => {
				const id = await createOne({ weight: 5 })
				expect((await call('PUT', '/api/channel/', { id, priority: -999 })).body.data.priority).toBe(-999)
				expect((await call('PUT', '/api/channel/', { id, weight: -3 })).body.data.weight).toBe(0)
				expect(await abilityRows()).toEqual([{ route: `default/gpt-4o/${id}`, enabled: true, priority: -999, weight: 0, tag: '' }])
				expect((await call('PUT', '/api/channel/', { id, priority: -1000 })).body.message).toBe(inEnglish(CHANNEL_MESSAGES.priorityMinimum))
			})

			test('refuses an empty name, no models and an unknown channel', async () => {
				const id = await createOne()
				expect((await call('PUT', '/api/channel/', { id, name: '' })).body.message).toBe(inEnglish(CHANNEL_MESSAGES.nameAndKeyRequired))
				expect((await call('PUT', '/api/channel/', { id, models: '' })).body.message).toBe(inEnglish(CHANNEL_MESSAGES.modelsRequired))
				expect((await call('PUT', '/api/channel/', { id: 4242, priority: 1 })).body).toEqual({ success: false, message: inEnglish(CHANNEL_MESSAGES.notFound) })
			})

			test('tells the routing table after each change', async () => {
				const id = await createOne()
				await call('PUT', '/api/channel/', { id, weight: 2 })
				expect(notifications).toBe(2)
			})
		})

		describe('tags', () => {
			let first: number
			let second: number
			let untagged: number
			beforeEach(async () => {
				first = await createOne({ name: 'one' })
				second = await createOne({ name: 'two' })
				untagged = await createOne({ name: 'three' })
				await call('POST', '/api/channel/batch/tag', { ids: [first, second, 4242], tag: 'pool' })
			})
			const tagOf = async (id: number) => (await storedRow(id)).tag

			test('sets a tag on the selected channels and their abilities; answers how many', async () => {
				const answer = await call('POST', '/api/channel/batch/tag', { ids: [untagged], tag: 'solo' })
				expect(answer.body).toEqual({ success: true, message: '', data: 1 })
				expect((await abilityRows()).map((row) => row.tag)).toEqual(['pool', 'pool', 'solo'])
			})

			test.each([
				[{ ids: [], tag: 'x' }, inEnglish(CHANNEL_MESSAGES.selectChannels)],
				[{ tag: 'x' }, inEnglish(CHANNEL_MESSAGES.selectChannels)],
				[{ ids: [1], tag: ' ' }, inEnglish(CHANNEL_MESSAGES.tagRequired)],
				[{ ids: [1] }, inEnglish(CHANNEL_MESSAGES.tagRequired)],
			])('refuses a batch tag of %j', async (body, message) => {
				const answer = await call('POST', '/api/channel/batch/tag', body)
				expect(answer.body).toEqual({ success: false, message })
			})

			test('refuses a model mapping with a cycle on an update and a tag edit, but takes a self-mapping, which is no mapping', async () => {
				const cyclic = '{"m1": "m2", "m2": "m1"}'
				const message = inEnglish(withValues(CHANNEL_MESSAGES.modelMappingCycle, { cycle: 'm1 → m2 → m1' }))
				expect((await call('PUT', '/api/channel/', { id: first, model_mapping: cyclic })).body).toEqual({ success: false, message })
				expect((await call('PUT', '/api/channel/tag', { tag: 'pool', model_mapping: cyclic })).body).toEqual({ success: false, message })
				for (const id of [first, second]) expect((await storedRow(id)).modelMapping).toBe('')
				const selfMapped = '{"m1": "m1", "m2": "m3", "m3": "m3", "m4": ""}'
				expect((await call('PUT', '/api/channel/tag', { tag: 'pool', model_mapping: selfMapped })).body).toEqual({ success: true, message: '', data: 2 })
				expect((await storedRow(first)).modelMapping).toBe(selfMapped)
			})

			test('overwrites the edited fields on every channel of the tag, leaving empty ones unchanged', async () => {
				const answer = await call('PUT', '/api/channel/tag', {
					tag: 'pool', new_tag: 'pool', models: 'm1,m2', groups: 'vip', priority: '8', weight: 4, model_mapping: '{"m1":"m3"}',
				})
				expect(answer.body).toEqual({ success: true, message: '', data: 2 })
				for (const id of [first, second]) {
					expect(await storedRow(id)).toMatchObject({ models: 'm1,m2', group: 'vip', priority: 8, weight: 4, modelMapping: '{"m1":"m3"}', tag: 'pool' })
				}
				expect(await storedRow(untagged)).toMatchObject({ models: 'gpt-4o', priority: 0 })
				const rows = await abilityRows()
				expect(rows.filter((row) => row.tag === 'pool').map((row) => row.route)).toEqual([`vip/m1/${first}`, `vip/m2/${first}`, `vip/m1/${second}`, `vip/m2/${second}`])
				expect(rows.every((row) => row.tag !== 'pool' || (row.priority === 8 && row.weight === 4))).toBe(true)
				await call('PUT', '/api/channel/tag', { tag: 'pool', new_tag: null, models: '', groups: '', priority: '', weight: 9 })
				expect(await storedRow(first)).toMatchObject({ models: 'm1,m2', group: 'vip', priority: 8, weight: 9, modelMapping: '{"m1":"m3"}' })
			})

			test('renames a tag, and an empty new tag dissolves it', async () => {
				await call('PUT', '/api/channel/tag', { tag: 'pool', new_tag: 'renamed' })
				expect([await tagOf(first), await tagOf(second)]).toEqual(['renamed', 'renamed'])
				await call('PUT', '/api/channel/tag', { tag: 'renamed', new_tag: '' })
				expect([await tagOf(first), await tagOf(second)]).toEqual(['', ''])
				expect((await abilityRows()).every((row) => row.tag === '')).toBe(true)
				expect(await listNames('tag_mode=true')).toEqual(['three', 'two', 'one'])
			})

			test.each([
				[{ tag: 'pool' }, inEnglish(CHANNEL_MESSAGES.noChanges)],
				[{ tag: 'pool', new_tag: 'pool', models: ' , ' }, inEnglish(CHANNEL_MESSAGES.noChanges)],
				[{ tag: 'pool', priority: 'high' }, inEnglish(CHANNEL_MESSAGES.priorityInteger)],
				[{ tag: 'pool', priority: 2.5 }, inEnglish(CHANNEL_MESSAGES.priorityInteger)],
				[{ tag: 'pool', weight: -1 }, inEnglish(CHANNEL_MESSAGES.weightInteger)],
				[{ tag: 'pool', model_mapping: '{oops' }, inEnglish(CHANNEL_MESSAGES.modelMappingInvalid)],
				[{ tag: '', priority: 1 }, inEnglish(CHANNEL_MESSAGES.tagRequired)],
				[{ tag: 'nobody', priority: 1 }, inEnglish(CHANNEL_MESSAGES.noChannelsWithTag)],
			])('refuses the tag edit %j', async (body, message) => {
				const answer = await call('PUT', '/api/channel/tag', body)
				expect(answer.body).toEqual({ success: false, message })
			})

			test('disables and enables every channel of the tag, with their abilities', async () => {
				const disabled = await call('POST', '/api/channel/tag/disabled', { tag: 'pool' })
				expect(disabled.body.data).toBe(2)
				expect([(await storedRow(first)).status, (await storedRow(second)).status, (await storedRow(untagged)).status]).toEqual([2, 2, 1])
				expect((await abilityRows()).map((row) => row.enabled)).toEqual([false, false, true])
				expect((await call('GET', '/api/channel/?tag_mode=true')).body.data.items[1]).toMatchObject({ kind: 'tag', status: TAG_STATUS.disabled })
				await markChannelAutoDisabled(ferry.store, untagged, UNAUTHORIZED_REASON, ferry.dependencies.changes)
				await call('POST', '/api/channel/batch/tag', { ids: [untagged], tag: 'pool' })
				const enabled = await call('POST', '/api/channel/tag/enabled', { tag: 'pool' })
				expect(enabled.body.data).toBe(3)
				expect((await abilityRows()).map((row) => row.enabled)).toEqual([true, true, true])
				expect((await storedRow(untagged)).otherInfo).toBe('')
				expect((await call('POST', '/api/channel/tag/enabled', { tag: 'missing' })).body.message).toBe(inEnglish(CHANNEL_MESSAGES.noChannelsWithTag))
			})
		})

		describe('deleting', () => {
			test('deletes one channel with its abilities', async () => {
				const id = await createOne()
				const kept = await createOne({ name: 'kept' })
				expect((await call('DELETE', `/api/channel/${id}`)).body).toEqual({ success: true, message: '' })
				expect(await routes()).toEqual([`default/gpt-4o/${kept}`])
				expect((await call('DELETE', `/api/channel/${id}`)).body).toEqual({ success: false, message: inEnglish(CHANNEL_MESSAGES.notFound) })
			})

			test('deletes every disabled channel, by hand or automatically, and answers the count', async () => {
				const enabled = await createOne()
				const manual = await createOne({ name: 'manual', status: CHANNEL_STATUS.manuallyDisabled })
				const automatic = await createOne({ name: 'automatic' })
				await markChannelAutoDisabled(ferry.store, automatic, UNAUTHORIZED_REASON, ferry.dependencies.changes)
				const answer = await call('DELETE', '/api/channel/disabled')
				expect(answer.body).toEqual({ success: true, message: '', data: 2 })
				expect(await routes()).toEqual([`default/gpt-4o/${enabled}`])
				expect((await call('GET', `/api/channel/${manual}`)).body.success).toBe(false)
			})

			test('deletes a selection and answers how many existed', async () => {
				const first = await createOne()
				const second = await createOne({ name: 'b' })
				const kept = await createOne({ name: 'c' })
				expect((await call('POST', '/api/channel/batch', { ids: [first, second, 4242] })).body).toEqual({ success: true, message: '', data: 2 })
				expect(await routes()).toEqual([`default/gpt-4o/${kept}`])
				expect((await call('POST', '/api/channel/batch', { ids: [] })).body).toEqual({ success: false, message: inEnglish(CHANNEL_MESSAGES.selectChannelsToDelete) })
			})
		})

		describe('fixing the abilities', () => {
			test('rebuilds the whole table from the channels and answers how many channels had wrong rows (a missing, a stale and a deleted one)', async () => {
				const first = await createOne({ group: 'default,vip', priority: 2 })
				const second = await createOne({ name: 'b', models: 'x', status: CHANNEL_STATUS.manuallyDisabled })
				const expected = await abilityRows()
				const { abilities } = ferry.store.tables
				await ferry.store.db.delete(abilities).where(eq(abilities.channelId, first))
				await ferry.store.db.insert(abilities).values({ group: 'ghost', model: 'ghost', channelId: 4242 })
				await ferry.store.db.update(abilities).set({ enabled: true, priority: 50 }).where(eq(abilities.channelId, second))
				const answer = await call('POST', '/api/channel/fix')
				expect(answer.body).toEqual({ success: true, message: '', data: 3 })
				expect(await abilityRows()).toEqual(expected)
				expect(expected).toHaveLength(3)
			})

			test('answers 0 on a healthy database and changes nothing', async () => {
				await createOne({ group: 'default,vip', priority: 2 })
				await createOne({ name: 'b', models: 'x,y', status: CHANNEL_STATUS.manuallyDisabled })
				const before = await abilityRows()
				expect((await call('POST', '/api/channel/fix')).body).toEqual({ success: true, message: '', data: 0 })
				expect(await abilityRows()).toEqual(before)
			})
		})

		describe('what the relay reads and writes', () => {
			test('loads only enabled channels, keys decrypted and fields parsed', async () => {
				const routable = await createOne({
					type: CHANNEL_TYPE.anthropic, key: 'sk-ant', models: 'claude-3,claude-3-haiku', group: 'vip,default', priority: 3, weight: 2,
					model_mapping: '{"claude-3":"claude-3-opus"}', status_code_mapping: '{"429": 503}', setting: '{"force_format":true}',
					openai_organization: 'org-1', test_model: 'claude-3-haiku', auto_ban: 0, base_url: 'https://anthropic.example/', max_input_tokens: 4096,
				})
				await createOne({ name: 'off', status: CHANNEL_STATUS.manuallyDisabled })
				const automatic = await createOne({ name: 'auto' })
				await markChannelAutoDisabled(ferry.store, automatic, UNAUTHORIZED_REASON, ferry.dependencies.changes)
				const channels = await loadRoutableChannels(ferry.store, ferry.dependencies.secrets)
				expect(channels).toEqual([{
					id: routable, type: 14, name: 'main', key: 'sk-ant', baseUrl: 'https://anthropic.example', other: '', organization: 'org-1',
					models: ['claude-3', 'claude-3-haiku'], groups: ['vip', 'default'], priority: 3, weight: 2,
					modelMapping: { 'claude-3': 'claude-3-opus' }, statusCodeMapping: { 429: '503' }, autoBan: false,
					setting: { force_format: true }, maxInputTokens: 4096, testModel: 'claude-3-haiku', mode: 'single', multiKeyMode: 'random', keys: [{ index: 0, key: 'sk-ant' }],
					cost: { ratio: undefined, models: {} }, settingsFingerprint: expect.any(String),
				}])
			})

			test('the settings fingerprint changes with what shapes the upstream\'s answer, not with what only routes calls', async () => {
				const id = await createOne({ base_url: 'https://one.example', other: '2024-01-01', setting: '{"force_format":true}' })
				const fingerprint = async () => (await loadRoutableChannels(ferry.store, ferry.dependencies.secrets)).find((channel) => channel.id === id)!.settingsFingerprint
				const { channels } = ferry.store.tables
				const edit = (fields: Partial<typeof channels.$inferInsert>) => ferry.store.db.update(channels).set(fields).where(eq(channels.id, id))
				const original = await fingerprint()
				await edit({ name: 'renamed', weight: 9, priority: 4, models: 'other-model', group: 'vip', maxInputTokens: 100 })
				expect(await fingerprint()).toBe(original)
				for (const fields of [{ baseUrl: 'https://two.example' }, { other: '2025-01-01' }, { openaiOrganization: 'org-2' }, { setting: '{"force_format":false}' }, { type: CHANNEL_TYPE.anthropic }]) {
					await edit(fields)
					const changed = await fingerprint()
					expect(changed).not.toBe(original)
					await edit({ baseUrl: 'https://one.example', other: '2024-01-01', openaiOrganization: '', setting: '{"force_format":true}', type: CHANNEL_TYPE.openai })
					expect(await fingerprint()).toBe(original)
				}
			})

			test('leaves out and reports a channel whose key cannot be decrypted', async () => {
				const id = await createOne()
				const { channels } = ferry.store.tables
				await ferry.store.db.update(channels).set({ key: 'plain-text-key' }).where(eq(channels.id, id))
				const unreadable: number[] = []
				expect(await loadRoutableChannels(ferry.store, ferry.dependencies.secrets, (channelId) => unreadable.push(channelId))).toEqual([])
				expect(unreadable).toEqual([id])
			})

			test('auto-disables an enabled channel with reason and time, disabling its abilities, once', async () => {
				const id = await createOne({ group: 'default,vip' })
				notifications = 0
				expect(await markChannelAutoDisabled(ferry.store, id, UNAUTHORIZED_REASON, ferry.dependencies.changes)).toBe(true)
				const row = await storedRow(id)
				expect(row.status).toBe(CHANNEL_STATUS.autoDisabled)
				const info = JSON.parse(row.otherInfo)
				expect(info.status_reason).toBe('upstream answered 401: bad key')
				expect(Math.abs(info.status_time - Date.now() / 1000)).toBeLessThan(60)
				expect((await abilityRows()).map((ability) => ability.enabled)).toEqual([false, false])
				expect(notifications).toBe(1)
				expect(await markChannelAutoDisabled(ferry.store, id, statusReason('test.slow', { seconds: 9, threshold: 1 }), ferry.dependencies.changes)).toBe(false)
				expect(JSON.parse((await storedRow(id)).otherInfo).status_reason).toBe('upstream answered 401: bad key')
				expect(notifications).toBe(1)
				const enabled = await call('PUT', '/api/channel/', { id, status: CHANNEL_STATUS.enabled })
				expect(enabled.body.data).toMatchObject({ status: 1, other_info: '' })
			})

			test('words Ferry\'s own status reasons in the reader\'s language, keeping the upstream\'s message and old stored reasons as they are', async () => {
				const reasonIn = async (id: number, language: string) => {
					const answer = await ferry.call('GET', `/api/channel/${id}`, { as: admin, headers: { 'accept-language': language } })
					return JSON.parse(answer.body.data.other_info).status_reason as string
				}
				const unauthorized = await createOne()
				await markChannelAutoDisabled(ferry.store, unauthorized, UNAUTHORIZED_REASON, ferry.dependencies.changes)
				expect(await reasonIn(unauthorized, 'zh-CN')).toBe('上游返回 401：bad key')
				expect(await reasonIn(unauthorized, 'en-US')).toBe('upstream answered 401: bad key')
				const failedTest = await createOne()
				await markChannelAutoDisabled(ferry.store, failedTest, statusReason('test.failed', { reason: { text: '上游返回 {status}', values: { status: 503 } } }), ferry.dependencies.changes)
				expect(await reasonIn(failedTest, 'zh-CN')).toBe('渠道测试失败：上游返回 503')
				expect(await reasonIn(failedTest, 'en-US')).toBe('channel test failed: upstream answered 503')
				const byHand = await createOne()
				await call('PUT', '/api/channel/', { id: byHand, status: CHANNEL_STATUS.manuallyDisabled })
				expect(await reasonIn(byHand, 'zh-CN')).toBe('被管理员禁用')
				const listed = await ferry.call('GET', '/api/channel/?page_size=50', { as: admin, headers: { 'accept-language': 'zh-CN' } })
				const listedReasons = listed.body.data.items.filter((item: { other_info: string }) => item.other_info)
					.map((item: { other_info: string }) => JSON.parse(item.other_info).status_reason)
				expect(listedReasons.sort()).toEqual(['上游返回 401：bad key', '被管理员禁用', '渠道测试失败：上游返回 503'].sort())
				// Rows written before the codes: the administrator's reason is known by its English; any other stays as stored.
				const { channels } = ferry.store.tables
				await ferry.store.db.update(channels).set({ otherInfo: JSON.stringify({ status_reason: 'disabled by an administrator', status_time: 1 }) }).where(eq(channels.id, byHand))
				await ferry.store.db.update(channels).set({ otherInfo: JSON.stringify({ status_reason: 'upstream answered 401: old', status_time: 1 }) }).where(eq(channels.id, unauthorized))
				expect(await reasonIn(byHand, 'zh-CN')).toBe('被管理员禁用')
				expect(await reasonIn(unauthorized, 'zh-CN')).toBe('upstream answered 401: old')
			})
		})

		describe('what would keep a channel from serving', () => {
			const check = (body: Record<string, unknown>) => call('POST', '/api/channel/check', { type: CHANNEL_TYPE.openai, ...body })

			test('a loopback base URL is private and blocked until the super admin allows private upstreams, and again outside the allowed hosts', async () => {
				const blocked = await check({ base_url: 'http://127.0.0.1:11434/' })
				expect(blocked.body.data.base_url).toEqual({ url: 'http://127.0.0.1:11434', host: '127.0.0.1', reach: 'private_blocked', private_upstreams_enabled: false })
				await ferry.dependencies.options.set('PrivateUpstreamsEnabled', 'true')
				expect((await check({ base_url: 'http://127.0.0.1:11434' })).body.data.base_url).toMatchObject({ reach: 'private_allowed', private_upstreams_enabled: true })
				await ferry.dependencies.options.set('PrivateUpstreamHosts', '10.0.0.0/8')
				expect((await check({ base_url: 'http://127.0.0.1:11434' })).body.data.base_url).toMatchObject({ reach: 'private_blocked', private_upstreams_enabled: true })
				expect((await check({ base_url: 'http://10.1.2.3' })).body.data.base_url).toMatchObject({ reach: 'private_allowed', host: '10.1.2.3' })
			})

			test('a public address is public, a cloud metadata address and a non-http URL are refused whatever the settings', async () => {
				await ferry.dependencies.options.set('PrivateUpstreamsEnabled', 'true')
				expect((await check({ base_url: 'https://1.1.1.1' })).body.data.base_url).toMatchObject({ reach: 'public', host: '1.1.1.1' })
				expect((await check({ base_url: 'http://169.254.169.254' })).body.data.base_url).toMatchObject({ reach: 'refused' })
				expect((await check({ base_url: 'ftp://files.example.com' })).body.data.base_url).toMatchObject({ reach: 'refused', host: '' })
				// Without a base URL the type's default is checked; without the field nothing is.
				expect((await check({ type: CHANNEL_TYPE.ollama, base_url: '' })).body.data.base_url).toMatchObject({ url: 'http://localhost:11434', reach: 'private_allowed' })
				expect((await check({})).body.data.base_url).toBeUndefined()
			})

			test('names the models without a price, and none in self-use mode', async () => {
				const answer = await check({ models: ['gpt-4o', 'my-local-llama', 'my-local-llama'] })
				expect(answer.body.data).toEqual({ unpriced_models: ['my-local-llama'], self_use_mode: false })
				await ferry.dependencies.options.set('SelfUseModeEnabled', 'true')
				expect((await check({ models: ['my-local-llama'] })).body.data).toEqual({ unpriced_models: [], self_use_mode: true })
			})

			test('lists the models enabled channels offer without a price, for the playground', async () => {
				await createOne({ models: 'gpt-4o,my-local-llama' })
				const disabled = await createOne({ models: 'another-unpriced' })
				await call('PUT', '/api/channel/', { id: disabled, status: CHANNEL_STATUS.manuallyDisabled })
				expect((await call('GET', '/api/channel/unpriced_models')).body.data).toEqual({ models: ['my-local-llama'], self_use_mode: false })
			})

			test('is for admins only, and refuses a body it cannot read with a 400', async () => {
				const user = await ferry.createUser('sailor')
				expect((await ferry.call('POST', '/api/channel/check', { as: user, body: { type: 1, models: [] } })).status).toBe(403)
				const bad = await call('POST', '/api/channel/check', { type: 'one', models: 'gpt-4o' })
				expect(bad.status).toBe(400)
				expect(bad.body.success).toBe(false)
			})
		})
	})
}
