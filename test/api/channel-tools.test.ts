/**
 * The channel tools (docs/specification/channels.md#the-channel-tools) driven through `/api/channel/…` against fake upstreams on
 * loopback: test one and all, balances, model lists and upstream detection.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { type BalanceUpdateReport, CHANNEL_MESSAGES, upstreamDetectionSchema } from '@shared/channel'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { ROLE } from '@shared/user'
import { openCanary } from '../helpers/canary'
import { databaseTargets } from '../helpers/database'
import { eventually } from '../helpers/eventually'
import { startRelayHarness, type RelayHarness } from '../helpers/relay'
import { inEnglish } from '@shared/messages'

const UPSTREAM_KEY = 'sk-tools-upstream-key-0123456789'

type Recorded = { method: string; path: string; search: string; headers: Record<string, string>; body: string }
type Route = (request: Request, body: string) => Response | Promise<Response>

/** A loopback server answering `routes` by "METHOD /path", recording every request. */
function fakeServer(routes: Record<string, Route>) {
	const requests: Recorded[] = []
	const server = Bun.serve({
		hostname: '127.0.0.1',
		port: 0,
		async fetch(request) {
			const url = new URL(request.url)
			const body = request.method === 'GET' ? '' : await request.text()
			requests.push({ method: request.method, path: url.pathname, search: url.search, headers: Object.fromEntries(request.headers), body })
			const route = routes[`${request.method} ${url.pathname}`] ?? routes['*']
			return route ? route(request, body) : new Response('not here', { status: 404 })
		},
	})
	return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) }
}

for (const target of databaseTargets()) {
	describe(`channel tools on ${target.dialect}`, () => {
		let harness: RelayHarness
		const servers: { stop(): void }[] = []
		const serve = (routes: Record<string, Route>) => {
			const server = fakeServer(routes)
			servers.push(server)
			return server
		}
		const channelRow = async (id: number) => {
			const { channels } = harness.ferry.store.tables
			const [row] = await harness.ferry.store.db.select().from(channels).where(eq(channels.id, id))
			return row!
		}
		const rootQuota = async () => {
			const { users } = harness.ferry.store.tables
			const [row] = await harness.ferry.store.db.select({ quota: users.quota, usedQuota: users.usedQuota }).from(users).where(eq(users.id, harness.root.userId))
			return row!
		}
		const get = (path: string) => harness.ferry.call('GET', path, { as: harness.root })

		beforeAll(async () => {
			harness = await startRelayHarness(target)
		})
		afterAll(async () => {
			for (const server of servers) server.stop()
			await harness.close()
		})

		describe('testing one channel', () => {
			test('sends a small "hi" chat to the test model, records the time, and logs the cost without charging anyone', async () => {
				const upstream = harness.startUpstream({ apiKey: UPSTREAM_KEY, promptTokens: 9, completionTokens: 4 })
				const id = await harness.createChannel({ name: 'tested', key: UPSTREAM_KEY, base_url: upstream.url, models: 'gpt-4o-mini,gpt-4o', test_model: 'gpt-4o' })
				const before = await rootQuota()
				const answer = await get(`/api/channel/test/${id}`)
				expect(answer.body).toMatchObject({ success: true, message: '' })
				expect(typeof answer.body.data.time).toBe('number')
				expect(answer.body.data.time).toBeGreaterThanOrEqual(0)

				const sent = upstream.requests.at(-1)!
				expect(sent.method).toBe('POST')
				expect(sent.path).toBe('/v1/chat/completions')
				expect(sent.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`)
				expect(sent.body).toEqual({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], max_tokens: 16 })

				const channel = await channelRow(id)
				expect(channel.testTime).toBeGreaterThan(0)
				expect(channel.responseTime).toBe(answer.body.data.time)
				expect(channel.usedQuota).toBe(0)

				const logs = await harness.ferry.call('GET', '/api/log/?p=1&page_size=100', { as: harness.root })
				const entry = logs.body.data.items.find((item: any) => item.channel_id === id || item.channel === id)
				expect(entry).toMatchObject({ type: LOG_TYPE.consume, model_name: 'gpt-4o', prompt_tokens: 9, completion_tokens: 4, username: 'root' })
				expect(entry.quota).toBeGreaterThan(0)
				expect(entry.other).toMatchObject({ channel_test: true, admin_info: { use_channel: [id] } })

				expect(await rootQuota()).toEqual(before)
				const { quotaHolds } = harness.ferry.store.tables
				expect(await harness.ferry.store.db.select().from(quotaHolds)).toEqual([])
			})

			test('tests the model named in ?model= instead of the default', async () => {
				const upstream = harness.startUpstream({ apiKey: UPSTREAM_KEY })
				const id = await harness.createChannel({ name: 'picked', key: UPSTREAM_KEY, base_url: upstream.url, models: 'gpt-4o-mini,gpt-4o' })
				const answer = await get(`/api/channel/test/${id}?model=gpt-4o-mini`)
				expect(answer.body.success).toBe(true)
				expect(upstream.requests.at(-1)!.body.model).toBe('gpt-4o-mini')
			})

			test('sends the ChannelTestPrompt setting instead of "hi": as the chat message, and as the input of an embeddings-only type', async () => {
				const saved = await harness.ferry.call('PUT', '/api/option/', { as: harness.root, body: { key: 'ChannelTestPrompt', value: 'Reply with the word OK.' } })
				expect(saved.body.success).toBe(true)
				try {
					const upstream = harness.startUpstream({ apiKey: UPSTREAM_KEY })
					const chat = await harness.createChannel({ name: 'prompted', key: UPSTREAM_KEY, base_url: upstream.url, models: 'gpt-4o-mini' })
					expect((await get(`/api/channel/test/${chat}`)).body.success).toBe(true)
					expect(upstream.requests.at(-1)!.body.messages).toEqual([{ role: 'user', content: 'Reply with the word OK.' }])

					const jina = await harness.createChannel({ type: CHANNEL_TYPE.jina, name: 'prompted-jina', key: UPSTREAM_KEY, base_url: upstream.url, models: 'jina-embeddings-v3' })
					expect((await get(`/api/channel/test/${jina}`)).body.success).toBe(true)
					const embedded = upstream.requests.at(-1)!
					expect(embedded.path).toBe('/v1/embeddings')
					expect(embedded.body.input).toBe('Reply with the word OK.')
				} finally {
					await harness.ferry.dependencies.options.set('ChannelTestPrompt', 'hi')
				}
			})

			test('a blank ChannelTestPrompt is refused in the reader\'s language and the prompt stays as it was', async () => {
				const zh = await harness.ferry.call('PUT', '/api/option/', { as: harness.root, headers: { 'accept-language': 'zh-CN' }, body: { key: 'ChannelTestPrompt', value: '  ' } })
				expect(zh.body).toMatchObject({ success: false, message: 'ChannelTestPrompt 的值无效：不能为空' })
				const en = await harness.ferry.call('PUT', '/api/option/', { as: harness.root, headers: { 'accept-language': 'en' }, body: { key: 'ChannelTestPrompt', value: 'x'.repeat(4097) } })
				expect(en.body).toMatchObject({ success: false, message: 'ChannelTestPrompt must be at most 4096 characters' })
				expect(harness.ferry.dependencies.options.get('ChannelTestPrompt')).toBe('hi')
			})

			test('answers success false with the upstream message when the upstream fails, and never echoes the key', async () => {
				const upstream = harness.startUpstream({ fault: 'status=500' })
				const id = await harness.createChannel({ name: 'broken', key: UPSTREAM_KEY, base_url: upstream.url, models: 'gpt-4o-mini' })
				const failed = await get(`/api/channel/test/${id}`)
				expect(failed.body.success).toBe(false)
				expect(failed.body.message).toBe('upstream answered 500: The server had an error while processing your request.')
				expect((await channelRow(id)).testTime).toBeGreaterThan(0)

				const echoing = serve({ '*': () => Response.json({ error: { message: `invalid key ${UPSTREAM_KEY}` } }, { status: 401 }) })
				const echoed = await harness.createChannel({ name: 'echo', key: UPSTREAM_KEY, base_url: echoing.url, models: 'gpt-4o-mini' })
				const refused = await get(`/api/channel/test/${echoed}`)
				expect(refused.body.success).toBe(false)
				expect(refused.body.message).toBe('upstream answered 401: invalid key ***')
				expect(JSON.stringify(refused.body)).not.toContain(UPSTREAM_KEY)
			})

			test('a stored base URL that is not a URL is refused in the reader\'s language, naming no target in English', async () => {
				// Saving refuses such a base URL now; a row kept from before still reaches the tools.
				const id = await harness.createChannel({ name: 'unparsable', key: UPSTREAM_KEY, base_url: 'https://unparsable.example', models: 'gpt-4o-mini' })
				const { channels } = harness.ferry.store.tables
				await harness.ferry.store.db.update(channels).set({ baseUrl: 'not a url' }).where(eq(channels.id, id))
				const zh = await harness.ferry.call('GET', `/api/channel/test/${id}`, { as: harness.root, headers: { 'accept-language': 'zh-CN' } })
				expect(zh.body).toMatchObject({ success: false, message: '请求被拒绝：无法解析该 URL' })
				const en = await harness.ferry.call('GET', `/api/channel/test/${id}`, { as: harness.root, headers: { 'accept-language': 'en' } })
				expect(en.body).toMatchObject({ success: false, message: 'outbound request refused: the URL cannot be parsed' })
			})

			test('answers "channel not found" for an unknown id', async () => {
				const answer = await get('/api/channel/test/999999')
				expect(answer.body).toMatchObject({ success: false, message: 'channel not found, refresh and retry' })
			})
		})

		test('testing all channels answers at once and tests every enabled channel in the background', async () => {
			const upstream = harness.startUpstream()
			const id = await harness.createChannel({ name: 'all-1', base_url: upstream.url, models: 'gpt-4o-mini' })
			const answer = await get('/api/channel/test')
			expect(answer.body.success).toBe(true)
			expect(answer.body.message).toContain('in the background')
			await eventually(async () => (await channelRow(id)).testTime > 0)
			expect(upstream.requests.some((request) => request.path === '/v1/chat/completions')).toBe(true)
		})

		describe('balances', () => {
			test('reads the documented balance call of each provider type and stores balance and update time', async () => {
				const billing = serve({
					'GET /v1/dashboard/billing/subscription': () => Response.json({ object: 'billing_subscription', has_payment_method: true, hard_limit_usd: 120, soft_limit_usd: 100, system_hard_limit_usd: 120, access_until: 0 }),
					'GET /v1/dashboard/billing/usage': () => Response.json({ object: 'list', daily_costs: [], total_usage: 2550 }),
					'GET /user/balance': () => Response.json({ is_available: true, balance_infos: [{ currency: 'CNY', total_balance: '110.00', granted_balance: '10.00', topped_up_balance: '100.00' }] }),
					'GET /v1/users/me/balance': () => Response.json({ code: 0, data: { available_balance: 49.58894, voucher_balance: 46.58893, cash_balance: 3.00001 }, scode: '0x0', status: true }),
					'GET /v1/user/info': () => Response.json({ code: 20000, message: 'OK', status: true, data: { id: 'userid', name: 'username', balance: '0.88', status: 'normal', chargeBalance: '88.00', totalBalance: '88.88' } }),
				})
				const cases = [
					{ type: 1, expected: 120 - 25.5, path: '/v1/dashboard/billing/usage' },
					{ type: 43, expected: 110, path: '/user/balance' },
					{ type: 25, expected: 49.58894, path: '/v1/users/me/balance' },
					{ type: 40, expected: 88.88, path: '/v1/user/info' },
				]
				for (const { type, expected, path } of cases) {
					const id = await harness.createChannel({ name: `balance-${type}`, type, key: UPSTREAM_KEY, base_url: billing.url, models: 'some-model' })
					const answer = await get(`/api/channel/update_balance/${id}/`)
					expect({ type, body: answer.body }).toEqual({ type, body: { success: true, message: '', data: expected } })
					const sent = billing.requests.findLast((request) => request.path === path)!
					expect(sent.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`)
					const row = await channelRow(id)
					expect(row.balance).toBeCloseTo(expected, 5)
					expect(row.balanceUpdatedTime).toBeGreaterThan(0)
				}
				const usage = billing.requests.find((request) => request.path === '/v1/dashboard/billing/usage')!
				expect(usage.search).toMatch(/^\?start_date=\d{4}-\d\d-\d\d&end_date=\d{4}-\d\d-\d\d$/)
			})

			test('says clearly that a type without a balance API has none, and passes upstream errors on', async () => {
				const claude = await harness.createChannel({ name: 'no-balance', type: 14, models: 'claude-3-haiku' })
				expect((await get(`/api/channel/update_balance/${claude}/`)).body).toEqual({ success: false, message: 'Anthropic Claude channels have no balance API' })
				const refusing = serve({ '*': () => Response.json({ error: { message: 'Authentication Fails' } }, { status: 401 }) })
				const deepseek = await harness.createChannel({ name: 'bad-key', type: 43, base_url: refusing.url, models: 'deepseek-chat' })
				expect((await get(`/api/channel/update_balance/${deepseek}/`)).body).toEqual({ success: false, message: 'upstream answered 401: Authentication Fails' })
			})

			test('updating all balances reports what it updated and which channels failed with the reason', async () => {
				const moonshot = serve({ 'GET /v1/users/me/balance': () => Response.json({ code: 0, data: { available_balance: 7.5, voucher_balance: 0, cash_balance: 7.5 } }) })
				const refusing = serve({ '*': () => Response.json({ error: { message: 'Authentication Fails' } }, { status: 401 }) })
				const id = await harness.createChannel({ name: 'balance-all', type: 25, base_url: moonshot.url, models: 'moonshot-v1-8k' })
				const failing = await harness.createChannel({ name: 'balance-refused', type: 43, base_url: refusing.url, models: 'deepseek-chat' })
				const answer = await get('/api/channel/update_balance')
				expect(answer.body.success).toBe(true)
				const report = answer.body.data as BalanceUpdateReport
				expect(report.pending).toBe(0)
				expect(report.failed).toContainEqual({ id: failing, name: 'balance-refused', reason: 'upstream answered 401: Authentication Fails' })
				expect(report.updated).toBeGreaterThanOrEqual(1)
				expect((await channelRow(id)).balance).toBe(7.5)
			})
		})

		describe('fetching model lists', () => {
			test('lists the models of a saved channel through its stored key', async () => {
				const upstream = harness.startUpstream({ apiKey: UPSTREAM_KEY, models: ['gpt-4o', 'gpt-4o-mini'] })
				const id = await harness.createChannel({ name: 'lister', key: UPSTREAM_KEY, base_url: upstream.url, models: 'gpt-4o' })
				const answer = await get(`/api/channel/fetch_models/${id}`)
				expect(answer.body).toEqual({ success: true, message: '', data: ['gpt-4o', 'gpt-4o-mini'] })
				expect(upstream.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models' })
			})

			test('lists the models of an unsaved channel from base URL, type and key without echoing the key', async () => {
				const upstream = harness.startUpstream({ apiKey: UPSTREAM_KEY, models: ['text-embedding-3-small'] })
				const answer = await harness.ferry.call('POST', '/api/channel/fetch_models', { as: harness.root, body: { base_url: `${upstream.url}/`, type: 1, key: UPSTREAM_KEY } })
				expect(answer.body).toEqual({ success: true, message: '', data: ['text-embedding-3-small'] })
				const wrongKey = await harness.ferry.call('POST', '/api/channel/fetch_models', { as: harness.root, body: { base_url: upstream.url, type: 1, key: 'sk-wrong-key-abcdefghijkl' } })
				expect(wrongKey.body.success).toBe(false)
				expect(wrongKey.body.message).toContain('upstream answered 401')
				expect(JSON.stringify(wrongKey.body)).not.toContain('sk-wrong-key')
			})

			test('uses the Anthropic and Gemini list calls with their own auth headers', async () => {
				const lists = serve({
					'GET /v1/models': () => Response.json({ data: [{ type: 'model', id: 'claude-sonnet-4-5', display_name: 'Claude Sonnet 4.5' }], has_more: false }),
					'GET /v1beta/models': () => Response.json({ models: [{ name: 'models/gemini-2.0-flash' }, { name: 'models/gemini-1.5-pro' }] }),
				})
				const claude = await harness.ferry.call('POST', '/api/channel/fetch_models', { as: harness.root, body: { base_url: lists.url, type: 14, key: 'claude-key' } })
				expect(claude.body.data).toEqual(['claude-sonnet-4-5'])
				expect(lists.requests.at(-1)!.headers).toMatchObject({ 'x-api-key': 'claude-key', 'anthropic-version': '2023-06-01' })
				const gemini = await harness.ferry.call('POST', '/api/channel/fetch_models', { as: harness.root, body: { base_url: lists.url, type: 24, key: 'gemini-key' } })
				expect(gemini.body.data).toEqual(['gemini-1.5-pro', 'gemini-2.0-flash'])
				expect(lists.requests.at(-1)!.headers['x-goog-api-key']).toBe('gemini-key')
			})

			test('the outbound guard refuses metadata addresses, and private ones unless the super admin allows them', async () => {
				const metadata = await harness.ferry.call('POST', '/api/channel/fetch_models', { as: harness.root, body: { base_url: 'http://169.254.169.254', type: 1, key: UPSTREAM_KEY } })
				expect(metadata.body.success).toBe(false)
				expect(metadata.body.message).toContain('metadata')
				const upstream = harness.startUpstream()
				await harness.ferry.dependencies.options.set('PrivateUpstreamsEnabled', 'false')
				try {
					const local = await harness.ferry.call('POST', '/api/channel/fetch_models', { as: harness.root, body: { base_url: upstream.url, type: 1, key: UPSTREAM_KEY } })
					expect(local.body.success).toBe(false)
					expect(local.body.message).toContain('private')
					expect(upstream.requests).toEqual([])
				} finally {
					await harness.ferry.dependencies.options.set('PrivateUpstreamsEnabled', 'true')
				}
			})

			test('reads Cohere\'s own list, whose names are under `models`', async () => {
				const cohere = serve({ 'GET /v1/models': () => Response.json({ models: [{ name: 'command-a-03-2025', endpoints: ['chat'] }, { name: 'rerank-v3.5', endpoints: ['rerank'] }], next_page_token: '' }) })
				const answer = await harness.ferry.call('POST', '/api/channel/fetch_models', { as: harness.root, body: { base_url: cohere.url, type: CHANNEL_TYPE.cohere, key: 'cohere-key' } })
				expect(answer.body).toEqual({ success: true, message: '', data: ['command-a-03-2025', 'rerank-v3.5'] })
				expect(cohere.requests.at(-1)).toMatchObject({ path: '/v1/models', search: '?page_size=1000', headers: { authorization: 'Bearer cohere-key' } })
			})

			test('says clearly that a type without a model list call has none, and sends its key nowhere', async () => {
				const lists = serve({ '*': () => Response.json({ object: 'list', data: [{ id: 'should-not-be-asked' }] }) })
				const baidu = await harness.ferry.call('POST', '/api/channel/fetch_models', { as: harness.root, body: { base_url: lists.url, type: CHANNEL_TYPE.baidu, key: 'api-key|secret-key' } })
				expect(baidu.body).toEqual({ success: false, message: 'Baidu Wenxin channels have no model list call' })
				const suno = await harness.createChannel({ name: 'suno-list', type: CHANNEL_TYPE.suno, base_url: lists.url, models: 'suno_music' })
				expect((await get(`/api/channel/fetch_models/${suno}`)).body).toEqual({ success: false, message: 'Suno channels have no model list call' })
				expect(lists.requests).toEqual([])
			})

			test('asks for a key before fetching', async () => {
				const answer = await harness.ferry.call('POST', '/api/channel/fetch_models', { as: harness.root, body: { base_url: 'https://api.openai.com', type: 1, key: '' } })
				expect(answer.status).toBe(400)
				expect(answer.body.message).toBe('please fill in the key')
			})
		})

		describe('upstream detection', () => {
			const shapes: Record<string, Route> = {
				go: () => Response.json({ error: { message: 'invalid request (request id: 2024abc)', type: 'new_api_error', code: 'invalid_request' } }, { status: 400, headers: { 'x-oneapi-request-id': '2024abc' } }),
				python: () => Response.json({ detail: 'Not Found' }, { status: 404, headers: { server: 'uvicorn' } }),
				azure: () => Response.json({ error: { code: '404', message: 'Resource not found' } }, { status: 404, headers: { 'apim-request-id': 'c0ffee', 'x-ms-region': 'East US' } }),
				openai: () => Response.json({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }, { status: 401, headers: { 'openai-organization': 'org-x', 'x-request-id': 'req_123' } }),
				unknown: () => Response.json({ oops: true }, { status: 500 }),
			}

			for (const [kind, route] of Object.entries(shapes)) {
				test(`tells a ${kind} upstream by its headers and error shape`, async () => {
					const upstream = serve({ '*': route })
					const id = await harness.createChannel({ name: `detect-${kind}`, key: UPSTREAM_KEY, base_url: upstream.url, models: 'gpt-4o-mini' })
					const answer = await get(`/api/channel/test_upstream/${id}`)
					expect(answer.body.success).toBe(true)
					const detection = upstreamDetectionSchema.parse(answer.body.data)
					expect(detection.groups).toHaveLength(1)
					expect(detection.groups[0]).toMatchObject({ client_types: [kind], counts: { [kind]: 3 } })
					expect(upstream.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v1/models', 'POST /v1/chat/completions', 'POST /v1/chat/completions'])
					expect(upstream.requests[1]!.body).toBe('{')
					expect(JSON.parse(upstream.requests[2]!.body).model).toBe('ferry-upstream-probe-no-such-model')
				})
			}

			test('keeps the groups on the channel and counts again on the next run', async () => {
				const upstream = serve({ '*': shapes.go! })
				const id = await harness.createChannel({ name: 'detect-twice', key: UPSTREAM_KEY, base_url: upstream.url, models: 'gpt-4o-mini' })
				const first = (await get(`/api/channel/test_upstream/${id}`)).body.data.groups[0]
				const second = (await get(`/api/channel/test_upstream/${id}`)).body.data.groups
				expect(second).toHaveLength(1)
				expect(second[0].counts).toEqual({ go: 6 })
				expect(second[0].first_seen).toBe(first.first_seen)
				expect(second[0].last_seen).toBeGreaterThanOrEqual(first.last_seen)
				const stored = JSON.parse((await channelRow(id)).otherInfo)
				expect(stored.upstream_detection.groups).toEqual(second)
			})
		})

		describe('a stored key an admin may use but not read', () => {
			test('reaches no host an admin chooses by editing or copying its channel, through any tool; an admin who enters a key, or the super admin, may move it', async () => {
				const admin = await harness.ferry.createUser('key-admin', ROLE.admin)
				const asAdmin = (method: string, path: string, body?: unknown) => harness.ferry.call(method, path, { as: admin, body })
				const upstream = harness.startUpstream({ apiKey: UPSTREAM_KEY, models: ['gpt-4o-mini'] })
				const id = await harness.createChannel({ name: 'guarded', key: UPSTREAM_KEY, base_url: upstream.url, models: 'gpt-4o-mini' })
				const catcher = openCanary()
				try {
					const attempts = [
						asAdmin('PUT', '/api/channel/', { id, base_url: catcher.origin }),
						asAdmin('PUT', '/api/channel/', { id, type: CHANNEL_TYPE.custom, base_url: `${catcher.origin}/v1/chat/completions` }),
						asAdmin('PUT', '/api/channel/', { id, type: CHANNEL_TYPE.anthropic, base_url: catcher.origin, key: '' }),
						asAdmin('POST', '/api/channel/', { type: CHANNEL_TYPE.openai, name: 'guarded-copy', models: 'gpt-4o-mini', copy_from: id, base_url: catcher.origin }),
						asAdmin('POST', '/api/channel/', { type: CHANNEL_TYPE.openai, name: 'guarded-batch', models: 'gpt-4o-mini', mode: 'batch', copy_from: id, base_url: catcher.origin }),
					]
					for (const answer of await Promise.all(attempts)) {
						expect({ status: answer.status, body: answer.body }).toEqual({ status: 403, body: { success: false, message: inEnglish(CHANNEL_MESSAGES.keyNeededForNewDestination) } })
					}
					// A channel not saved yet that names the stored one gets no key from it.
					const unsaved = await asAdmin('POST', '/api/channel/fetch_models', { id, copy_from: id, channel_id: id, base_url: catcher.origin, type: CHANNEL_TYPE.openai })
					expect(unsaved.body).toEqual({ success: false, message: 'please fill in the key' })
					for (const tool of ['test', 'fetch_models', 'update_balance', 'test_upstream']) await asAdmin('GET', `/api/channel/${tool}/${id}`)
					const { channels } = harness.ferry.store.tables
					const pointed = await harness.ferry.store.db.select({ id: channels.id, baseUrl: channels.baseUrl }).from(channels)
					expect(pointed.filter((channel) => channel.baseUrl.includes(String(catcher.port)))).toEqual([])
					expect(catcher.connections).toBe(0)
					expect(upstream.requests.length).toBeGreaterThan(0)
					expect(upstream.requests.every((request) => request.headers.authorization === `Bearer ${UPSTREAM_KEY}`)).toBe(true)
				} finally {
					catcher.stop()
				}

				const ownHost = serve({ '*': () => Response.json({ object: 'list', data: [{ id: 'moved-model' }] }) })
				const entered = await asAdmin('PUT', '/api/channel/', { id, base_url: ownHost.url, key: 'sk-entered-by-the-admin' })
				expect(entered.body.success).toBe(true)
				expect((await asAdmin('GET', `/api/channel/fetch_models/${id}`)).body.data).toEqual(['moved-model'])
				expect(ownHost.requests.map((request) => request.headers.authorization)).toEqual(['Bearer sk-entered-by-the-admin'])

				const rootMoved = await harness.createChannel({ name: 'root-moved', key: UPSTREAM_KEY, base_url: upstream.url, models: 'gpt-4o-mini' })
				const moved = await harness.ferry.call('PUT', '/api/channel/', { as: harness.root, body: { id: rootMoved, base_url: ownHost.url } })
				expect(moved.body.success).toBe(true)
				expect((await get(`/api/channel/fetch_models/${rootMoved}`)).body.data).toEqual(['moved-model'])
				expect(ownHost.requests.at(-1)!.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`)
			})
		})

		test('ordinary users and anonymous callers cannot use the tools', async () => {
			const user = await harness.ferry.createUser('toolsuser')
			for (const path of ['/api/channel/test/1', '/api/channel/test', '/api/channel/update_balance', '/api/channel/fetch_models/1', '/api/channel/test_upstream/1']) {
				expect((await harness.ferry.call('GET', path, { as: user })).status).toBe(403)
				expect((await harness.ferry.call('GET', path)).status).toBe(401)
			}
		})
	})
}
