/**
 * A new-api installation to import, as a SQLite file or in a Postgres schema, with new-api's table
 * layout (test/fixtures/new-api/schema.ts) and rows as new-api writes them: bcrypt `$2a$` password
 * hashes, 48-character token keys without `sk-`, GORM's soft-delete times, bools as 0/1 on SQLite.
 */
import { Database } from 'bun:sqlite'
import { SQL } from 'bun'
import { randomString } from '@/lib/crypto'
import { newApiSchema, oneApiSchema, type SqlDialect } from '../fixtures/new-api/schema'

export type Rows = Record<string, Record<string, unknown>[]>

/** A bcrypt hash as Go's golang.org/x/crypto/bcrypt writes it (`$2a$`; the algorithm is the same as `$2b$`). */
async function goBcrypt(password: string): Promise<string> {
	return (await Bun.password.hash(password, { algorithm: 'bcrypt', cost: 4 })).replace(/^\$2b\$/, '$2a$')
}

/** A published `$2a$` test vector (OpenWall crypt_blowfish): the password `U*U`. */
export const PUBLISHED_BCRYPT = { password: 'U*U', hash: '$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW' }

/** GORM's SQLite text for a soft-delete time. */
export const GORM_DELETED_AT = '2024-05-01 10:00:00.123456789+08:00'

const newKey = () => randomString(48)

export interface NewApiFixture {
	rows: Rows
	keys: Record<'unlimited' | 'limited' | 'modelLimited' | 'expired' | 'disabled' | 'deleted' | 'root' | 'dave' | 'orphan', string>
	passwords: { root: string; alice: string; bob: string; carol: string }
	codes: { unused: string; used: string; deleted: string }
	accessToken: string
}

/** new-api rows; the channel calls `upstreamUrl`. */
export async function newApiFixture(upstreamUrl: string): Promise<NewApiFixture> {
	const passwords = { root: 'root-old-pass', alice: 'alice-old-pass', bob: PUBLISHED_BCRYPT.password, carol: 'carol-old-pass' }
	const keys = {
		unlimited: newKey(), limited: newKey(), modelLimited: newKey(), expired: newKey(), disabled: newKey(),
		deleted: newKey(), root: newKey(), dave: newKey(), orphan: newKey(),
	}
	const codes = { unused: randomString(32, '0123456789abcdef'), used: randomString(32, '0123456789abcdef'), deleted: randomString(32, '0123456789abcdef') }
	const accessToken = randomString(32)
	const user = (fields: Record<string, unknown>) => ({
		display_name: '', role: 1, status: 1, email: '', github_id: '', discord_id: '', oidc_id: '', wechat_id: '', telegram_id: '',
		access_token: null, quota: 0, used_quota: 0, request_count: 0, group: 'default', aff_count: 0, aff_quota: 0, aff_history: 0,
		inviter_id: 0, invite_rebate_eligible: false, deleted_at: null, linux_do_id: '', setting: '', remark: '', stripe_customer: '',
		created_at: 1_700_000_000, last_login_at: 0, auth_version: 1, ...fields,
	})
	const token = (fields: Record<string, unknown>) => ({
		user_id: 2, status: 1, name: 'token', created_time: 1_700_000_000, accessed_time: 0, expired_time: -1, remain_quota: 0,
		unlimited_quota: false, model_limits_enabled: false, model_limits: '', allow_ips: '', used_quota: 0, group: '',
		cross_group_retry: false, billing_type: 0, deleted_at: null, ...fields,
	})
	const channel = (fields: Record<string, unknown>) => ({
		type: 1, open_ai_organization: '', test_model: '', status: 1, name: 'channel', weight: 0, created_time: 1_700_000_000, test_time: 0,
		response_time: 0, base_url: '', other: '', balance: 0, balance_updated_time: 0, models: 'gpt-4o-mini', group: 'default',
		used_quota: 0, model_mapping: '', status_code_mapping: '', priority: 0, auto_ban: 1, need_reconcile: 0, other_info: '',
		tag: '', setting: '', param_override: '', header_override: '', remark: '', channel_info: '{}', settings: '', ...fields,
	})
	const consume = (id: number, fields: Record<string, unknown> = {}) => ({
		id, user_id: 2, created_at: 1_710_000_000 + id, type: 2, content: 'model ratio 2', username: 'alice', token_name: 'limited',
		model_name: 'gpt-4o-mini', quota: 50, prompt_tokens: 10, completion_tokens: 5, use_time: 1, is_stream: false, channel_id: 1,
		token_id: 2, group: 'default', ip: '', request_id: `req-${id}`, other: '{"model_ratio":2}', ...fields,
	})
	const rows: Rows = {
		users: [
			user({ id: 1, username: 'root', password: await goBcrypt(passwords.root), display_name: 'Root User', role: 100, quota: 50_000_000, access_token: accessToken, aff_code: 'rootAFF1' }),
			user({
				id: 2, username: 'alice', password: await goBcrypt(passwords.alice), display_name: 'Alice', email: 'alice@example.com', quota: 2_000_000,
				used_quota: 300_000, request_count: 42, aff_code: 'alice001', aff_count: 2, aff_quota: 7_000, aff_history: 9_000, inviter_id: 1,
				github_id: 'gh-alice', oidc_id: 'oidc-sub-alice', setting: '{"notify_type":"email"}', last_login_at: 1_710_000_000,
			}),
			user({ id: 3, username: 'bob', password: PUBLISHED_BCRYPT.hash, role: 10, quota: 1_000_000, aff_code: 'bob00001', discord_id: 'discord-bob', github_id: 'gh-alice' }),
			user({ id: 4, username: 'carol', password: await goBcrypt(passwords.carol), quota: 500, used_quota: 100, aff_code: 'carol001', deleted_at: GORM_DELETED_AT }),
			user({ id: 5, username: 'dave', password: await goBcrypt('dave-old-pass'), quota: -5_000, used_quota: 20_000, aff_code: null }),
		],
		tokens: [
			token({ id: 1, key: keys.unlimited, name: 'unlimited', unlimited_quota: true, used_quota: 100_000 }),
			token({ id: 2, key: keys.limited, name: 'limited', remain_quota: 400_000, used_quota: 150_000, allow_ips: '127.0.0.1\n::1' }),
			token({ id: 3, key: keys.modelLimited, name: 'model-limited', unlimited_quota: true, model_limits_enabled: true, model_limits: 'gpt-4o-mini' }),
			token({ id: 4, key: keys.expired, name: 'expired', unlimited_quota: true, expired_time: 1_600_000_000 }),
			token({ id: 5, key: keys.disabled, name: 'disabled', unlimited_quota: true, status: 2 }),
			token({ id: 6, key: keys.deleted, name: 'deleted', unlimited_quota: true, used_quota: 50_000, deleted_at: GORM_DELETED_AT }),
			token({ id: 7, key: keys.root, name: 'root', user_id: 1, unlimited_quota: true }),
			token({ id: 8, key: keys.dave, name: 'dave', user_id: 5, unlimited_quota: true, used_quota: 25_000 }),
			token({ id: 9, key: keys.orphan, name: 'orphan', user_id: 99, unlimited_quota: true }),
		],
		channels: [
			channel({
				id: 1, name: 'main', key: 'sk-upstream-main', base_url: upstreamUrl, models: 'gpt-4o-mini,gpt-4o,my-alias', group: 'default,vip',
				model_mapping: '{"my-alias": "gpt-4o-mini"}', status_code_mapping: '{"429":"503"}', priority: 5, weight: 3, tag: 'primary',
				setting: '{"force_format":true,"proxy":"http://proxy.internal:8080"}', other_info: '{"source":"new-api"}', used_quota: 123_456, balance: 12.5, balance_updated_time: 1_705_000_000,
				test_model: 'gpt-4o-mini', open_ai_organization: 'org-test', response_time: 321, test_time: 1_706_000_000, param_override: '{"temperature":0}',
			}),
			channel({ id: 2, name: 'video', type: 51, key: 'jimeng-key', models: 'jimeng-v1' }),
			channel({ id: 3, name: 'router', type: 20, key: 'sk-or-key', models: 'gpt-4o', status: 2 }),
			channel({
				id: 4, name: 'pool', key: 'sk-pool-1\nsk-pool-2', models: 'gpt-4o', status: 2, base_url: upstreamUrl,
				channel_info: '{"is_multi_key":true,"multi_key_size":2,"multi_key_status_list":{"1":2},"multi_key_mode":"random"}',
			}),
		],
		abilities: ['default', 'vip'].flatMap((group) => ['gpt-4o-mini', 'gpt-4o', 'my-alias'].map((model) => ({
			group, model, channel_id: 1, enabled: true, priority: 5, weight: 3, tag: 'primary',
		}))),
		options: [
			{ key: 'QuotaPerUnit', value: '500000' },
			{ key: 'ModelRatio', value: '{"gpt-4o-mini": 2, "gpt-4o": 5, "my-alias": 2}' },
			{ key: 'CompletionRatio', value: '{"gpt-4o-mini": 3}' },
			{ key: 'GroupRatio', value: '{"default": 1, "vip": 1}' },
			{ key: 'SystemName', value: 'Old Gateway' },
			{ key: 'RetryTimes', value: 'three' },
			{ key: 'general_setting.docs_link', value: 'https://docs.example.com' },
		],
		redemptions: [
			{ id: 1, user_id: 1, key: codes.unused, status: 1, name: 'gift', quota: 1_000_000, created_time: 1_700_000_000, redeemed_time: 0, used_user_id: 0, deleted_at: null, expired_time: 0 },
			{ id: 2, user_id: 1, key: codes.used, status: 3, name: 'gift', quota: 1_000_000, created_time: 1_700_000_000, redeemed_time: 1_701_000_000, used_user_id: 2, deleted_at: null, expired_time: 0 },
			{ id: 3, user_id: 1, key: codes.deleted, status: 1, name: 'gone', quota: 1_000_000, created_time: 1_700_000_000, redeemed_time: 0, used_user_id: 0, deleted_at: GORM_DELETED_AT, expired_time: 0 },
		],
		logs: [
			consume(10), consume(11), consume(12, { is_stream: true }),
			{ ...consume(13), type: 1, content: 'top-up through a redemption code', quota: 1_000_000, model_name: '' },
			{ ...consume(14), type: 5, content: 'upstream error', quota: 0 },
		],
		midjourneys: [
			{ id: 1, code: 1, user_id: 2, action: 'IMAGINE', mj_id: 'mj-1', prompt: 'a cat', prompt_en: 'a cat', description: '', state: '', submit_time: 1_710_000_000_000, start_time: 1_710_000_001_000, finish_time: 1_710_000_060_000, image_url: 'https://cdn.example.com/cat.png', video_url: '', video_urls: '', status: 'SUCCESS', progress: '100%', fail_reason: '', channel_id: 1, quota: 25_000, token_id: 2, billing_channel_id: 0, buttons: '[]', properties: '{}' },
			{ id: 2, code: 1, user_id: 2, action: 'IMAGINE', mj_id: 'mj-2', prompt: 'a dog', prompt_en: '', description: '', state: '', submit_time: 1_710_000_100_000, start_time: 0, finish_time: 0, image_url: '', video_url: '', video_urls: '', status: 'IN_PROGRESS', progress: '40%', fail_reason: '', channel_id: 1, quota: 25_000, token_id: 2, billing_channel_id: 0, buttons: '', properties: '' },
		],
		tasks: [
			{ id: 1, created_at: 1_710_000_000, updated_at: 1_710_000_100, task_id: 'task_done', platform: 'suno', user_id: 2, group: 'default', channel_id: 1, quota: 10_000, action: 'MUSIC', status: 'SUCCESS', fail_reason: '', submit_time: 1_710_000_000, start_time: 1_710_000_010, finish_time: 1_710_000_100, progress: '100%', properties: '{"input":"a song"}', private_data: '{"key":"upstream-secret-key","result_url":"https://cdn.example.com/song.mp3"}', data: '{}' },
			{ id: 2, created_at: 1_710_000_200, updated_at: 1_710_000_200, task_id: 'task_open', platform: 'suno', user_id: 2, group: 'default', channel_id: 1, quota: 10_000, action: 'MUSIC', status: 'QUEUED', fail_reason: '', submit_time: 1_710_000_200, start_time: 0, finish_time: 0, progress: '0%', properties: '{}', private_data: '{}', data: '{}' },
		],
		two_fas: [{ id: 1, user_id: 2, secret: 'JBSWY3DPEHPK3PXP', is_enabled: true, failed_attempts: 0 }],
		top_ups: [
			{ id: 1, user_id: 2, amount: 10, money: 73, trade_no: 'USR2NOpaid', payment_method: 'alipay', payment_provider: 'epay', create_time: 1_705_000_000, complete_time: 1_705_000_060, status: 'success' },
			{ id: 2, user_id: 2, amount: 20, money: 146, trade_no: 'USR2NOopen', payment_method: 'wxpay', payment_provider: 'epay', create_time: 1_709_000_000, complete_time: 0, status: 'pending' },
		],
		quota_data: [
			{ id: 1, user_id: 2, username: 'alice', model_name: 'gpt-4o-mini', created_at: 1_710_000_000, token_used: 15, count: 1, quota: 50 },
			{ id: 2, user_id: 2, username: 'alice', model_name: 'gpt-4o-mini', created_at: 1_710_000_000, token_used: 30, count: 2, quota: 100 },
			{ id: 3, user_id: 2, username: 'alice', model_name: 'gpt-4o', created_at: 1_710_003_600, token_used: 15, count: 1, quota: 80 },
		],
	}
	return { rows, keys, passwords, codes, accessToken }
}

function insertText(dialect: SqlDialect, table: string, columns: string[]) {
	const quote = (name: string) => `"${name}"`
	const placeholders = columns.map((_, index) => dialect === 'pg' ? `$${index + 1}` : '?')
	return `INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) VALUES (${placeholders.join(', ')})`
}

/** SQLite keeps bools as 0/1 and GORM's JSON as text; Postgres takes the values as they are. */
function sqliteValue(value: unknown) {
	return typeof value === 'boolean' ? Number(value) : value
}

export function writeSqliteSource(path: string, rows: Rows, schema = newApiSchema('sqlite')) {
	const database = new Database(path, { create: true })
	for (const statement of schema) database.run(statement)
	// One transaction: a source of many rows is written in moments rather than a commit per row.
	database.transaction(() => {
		for (const [table, tableRows] of Object.entries(rows)) {
			for (const row of tableRows) {
				const columns = Object.keys(row)
				database.query(insertText('sqlite', table, columns)).run(...columns.map((column) => sqliteValue(row[column])) as never[])
			}
		}
	})()
	database.close()
}

/** new-api's tables in a schema of their own; answers the source URL (with `search_path`) and a cleanup. */
export async function writePostgresSource(url: string, rows: Rows): Promise<{ sourceUrl: string; drop(): Promise<void> }> {
	const schema = `newapi_${randomString(10, 'abcdefghijklmnopqrstuvwxyz0123456789')}`
	const admin = new SQL({ url, max: 1 })
	await admin.unsafe(`CREATE SCHEMA "${schema}"`)
	await admin.close()
	const client = new SQL({ url, max: 1, connection: { search_path: schema } })
	for (const statement of newApiSchema('pg')) await client.unsafe(statement)
	for (const [table, tableRows] of Object.entries(rows)) {
		for (const row of tableRows) {
			const columns = Object.keys(row)
			await client.unsafe(insertText('pg', table, columns), columns.map((column) => {
				const value = row[column]
				return column === 'deleted_at' && value === GORM_DELETED_AT ? '2024-05-01T10:00:00.123+08:00' : value
			}))
		}
		// new-api's own rows came through its sequences; these came with ids, as an import must handle.
		if (tableRows.some((row) => 'id' in row)) await client.unsafe(`SELECT setval(pg_get_serial_sequence('"${table}"', 'id'), (SELECT max(id) FROM "${table}"))`)
	}
	await client.close()
	const sourceUrl = new URL(url)
	sourceUrl.searchParams.set('search_path', schema)
	return {
		sourceUrl: sourceUrl.toString(),
		async drop() {
			const cleaner = new SQL({ url, max: 1 })
			await cleaner.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
			await cleaner.close()
		},
	}
}

export interface OneApiFixture {
	rows: Rows
	key: string
	password: string
	code: string
}

/** one-api rows (songquanpeng/one-api): model list and subnet on tokens, per-type `config` on channels. */
export async function oneApiFixture(upstreamUrl: string): Promise<OneApiFixture> {
	const key = newKey()
	const code = randomString(32, '0123456789abcdef')
	const password = 'one-api-pass'
	const channel = (fields: Record<string, unknown>) => ({
		status: 1, weight: 0, created_time: 1_690_000_000, test_time: 0, response_time: 0, base_url: '', other: '', balance: 0,
		balance_updated_time: 0, models: 'gpt-4o-mini', group: 'default', used_quota: 0, model_mapping: '', priority: 0, config: '',
		system_prompt: null, ...fields,
	})
	const rows: Rows = {
		users: [
			{ id: 1, username: 'root', password: await goBcrypt('root-pass'), display_name: 'Root User', role: 100, status: 1, email: '', github_id: '', wechat_id: '', lark_id: '', oidc_id: '', access_token: randomString(32), quota: 500_000_000, used_quota: 0, request_count: 0, group: 'default', aff_code: 'R00T', inviter_id: 0 },
			{ id: 2, username: 'erin', password: await goBcrypt(password), display_name: 'Erin', role: 1, status: 1, email: '', github_id: '', wechat_id: '', lark_id: 'lark-erin', oidc_id: '', access_token: null, quota: 1_000_000, used_quota: 200, request_count: 3, group: 'default', aff_code: 'ERIN', inviter_id: 0 },
			// one-api deletes an account by renaming it and setting status 3.
			{ id: 3, username: 'deleted_5f0c', password: await goBcrypt(password), display_name: 'Gone', role: 1, status: 3, email: '', github_id: '', wechat_id: '', lark_id: '', oidc_id: '', access_token: null, quota: 10, used_quota: 0, request_count: 0, group: 'default', aff_code: 'GONE', inviter_id: 0 },
		],
		tokens: [
			{ id: 1, user_id: 2, key, status: 1, name: 'erin', created_time: 1_690_000_000, accessed_time: 0, expired_time: -1, remain_quota: 500_000, unlimited_quota: false, used_quota: 200, models: 'gpt-4o-mini', subnet: '127.0.0.0/8,::1/128' },
		],
		channels: [
			channel({ id: 1, type: 1, key: 'sk-upstream-main', name: 'openai', base_url: upstreamUrl, models: 'gpt-4o-mini,gpt-4o' }),
			channel({ id: 2, type: 36, key: 'sk-deepseek', name: 'deepseek', models: 'deepseek-chat', status: 2 }),
			channel({ id: 3, type: 3, key: 'azure-key', name: 'azure', base_url: 'https://example.openai.azure.com', status: 2, config: '{"api_version":"2024-02-01"}' }),
			channel({ id: 4, type: 33, key: '', name: 'bedrock', status: 2, config: '{"region":"us-east-1","ak":"AKIAEXAMPLE","sk":"secret-example"}', system_prompt: 'Be brief.' }),
			channel({ id: 5, type: 34, key: 'coze-key', name: 'coze', status: 2 }),
			channel({ id: 6, type: 29, key: 'gsk-groq', name: 'groq', status: 2 }),
		],
		options: [{ key: 'ModelRatio', value: '{"gpt-4o-mini": 2, "gpt-4o": 5}' }, { key: 'CompletionRatio', value: '{"gpt-4o-mini": 3}' }],
		redemptions: [{ id: 1, user_id: 1, key: code, status: 1, name: 'gift', quota: 300_000, created_time: 1_690_000_000, redeemed_time: 0 }],
		logs: [{ id: 1, user_id: 2, created_at: 1_690_000_100, type: 2, content: '', username: 'erin', token_name: 'erin', model_name: 'gpt-4o-mini', quota: 200, prompt_tokens: 10, completion_tokens: 5, channel_id: 1, request_id: '', elapsed_time: 1_500, is_stream: false, system_prompt_reset: false }],
	}
	return { rows, key, password, code }
}

export { newApiSchema, oneApiSchema }
