import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { API_MESSAGES, MAX_ROW_ID, MESSAGES } from '@shared/api'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { renderMessage, withValues } from '@shared/messages'
import { ROLE } from '@shared/user'
import { ROUTE_POLICY } from '@/api/route-policy'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'

describe('answers to bad input', () => {
	let ferry: TestApp
	beforeAll(async () => {
		ferry = await createTestApp(databaseTargets()[0]!)
	})
	afterAll(() => ferry.close())

	test('malformed JSON is a 400 in the envelope, never a 500', async () => {
		const answer = await ferry.call('POST', '/api/user/login', { body: '{"username": "root",', headers: { 'content-type': 'application/json' } })
		expect(answer.status).toBe(400)
		expect(answer.body).toEqual({ success: false, message: MESSAGES.invalidJson })
	})

	test('malformed JSON without a content type is a 400 too', async () => {
		const answer = await ferry.call('POST', '/api/user/login', { body: '{oops' })
		expect(answer.status).toBe(400)
	})

	test('a JSON body sent without a content type is still understood', async () => {
		const answer = await ferry.call('POST', '/api/user/login', { body: '{"username":"root","password":"123456"}' })
		expect(answer.body.success).toBe(true)
	})

	test.each([
		['an array', '[1,2,3]'],
		['a number', '42'],
		['null', 'null'],
		['wrong types', '{"username": 5, "password": {"a": 1}}'],
		['a huge string', JSON.stringify({ username: 'x'.repeat(100_000), password: 'y' })],
	])('a login body that is %s is a 400', async (_, body) => {
		const answer = await ferry.call('POST', '/api/user/login', { body, headers: { 'content-type': 'application/json' } })
		expect(answer.status).toBe(400)
		expect(answer.body.success).toBe(false)
	})

	test('an unknown /api path is a 404 in the envelope', async () => {
		const answer = await ferry.call('GET', '/api/no/such/thing')
		expect(answer.status).toBe(404)
		expect(answer.body).toEqual({ success: false, message: MESSAGES.notFound })
	})

	test('a non-numeric user id is a 400', async () => {
		const root = await ferry.loginRoot()
		expect((await ferry.call('GET', '/api/user/abc', { as: root })).status).toBe(400)
	})

	test('API answers are marked not cacheable', async () => {
		const response = await ferry.app.handle(new Request('http://localhost/api/status'))
		expect(response.headers.get('cache-control')).toBe('no-store')
	})

	test('a body over the size limit is refused with 413 by the server', async () => {
		const server = Bun.serve({ port: 0, hostname: '127.0.0.1', maxRequestBodySize: 1024, fetch: (request) => ferry.app.handle(request) })
		try {
			const response = await fetch(`http://127.0.0.1:${server.port}/api/user/login`, {
				method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'root', password: 'x'.repeat(4096) }),
			})
			expect(response.status).toBe(413)
		} finally {
			await server.stop(true)
		}
	})
})

/**
 * Values SQLite stores or looks up without complaint and Postgres refuses in the statement: ids past
 * its 32-bit id columns and the NUL character. Each is a 400 in the envelope on both databases,
 * before any statement runs, never a 500.
 */
for (const target of databaseTargets()) {
	describe(`values Postgres cannot hold, on ${target.dialect}`, () => {
		const PAST_LARGEST_ID = [MAX_ROW_ID + 1, 3_000_000_000, 99_999_999_999]
		const invalidField = (field: string) => renderMessage('en', withValues(API_MESSAGES.invalidField, { field }))
		let ferry: TestApp
		let root: Caller
		let user: Caller
		beforeEach(async () => {
			ferry = await createTestApp(target, { rateLimiter: { hit: () => true } })
			root = await ferry.loginRoot()
			user = await ferry.createUser('someone')
		})
		afterEach(() => ferry.close())

		/** A body each route with path ids reads, so that only the id can be wrong. */
		const BODIES: Record<string, unknown> = {
			'POST /api/channel/:id/keys': { key: 'sk-added' },
			'PUT /api/channel/:id/keys/:index': { status: 1 },
			'POST /api/plan/:id/pay': { payment_method: 'alipay' },
			'POST /api/user/:id/subscriptions/:subscription/reset': {},
		}

		test('every route naming a row in its path answers an id past the largest row id with a 400 naming the parameter', async () => {
			const routes = Object.keys(ROUTE_POLICY).filter((route) => /:(id|subscription)\b/.test(route))
			expect(routes.length).toBeGreaterThan(15)
			const answers: string[] = []
			const expected: string[] = []
			for (const route of routes) {
				const [method, path] = route.split(' ') as [string, string]
				for (const parameter of ['id', 'subscription'].filter((name) => path.includes(`:${name}`))) {
					for (const id of PAST_LARGEST_ID) {
						const address = path.replace(`:${parameter}`, String(id)).replace(/:\w+/g, (name) => (name === ':index' ? '0' : '1'))
						const answer = await ferry.call(method, address, { as: root, body: BODIES[route] })
						answers.push(`${method} ${address}: ${answer.status} ${answer.body.message}`)
						expected.push(`${method} ${address}: 400 ${invalidField(parameter)}`)
					}
				}
			}
			expect(answers).toEqual(expected)
		})

		test('every body naming a row by id answers an id past the largest row id with a 400 in the envelope', async () => {
			const channel = await ferry.call('POST', '/api/channel/', { as: root, body: { type: CHANNEL_TYPE.openai, name: 'main', key: 'sk-main', models: 'gpt-4o' } })
			expect(channel.body.success).toBe(true)
			const calls: [method: string, path: string, caller: Caller, body: (id: number) => unknown][] = [
				['PUT', '/api/user/', root, (id) => ({ id, display_name: 'x' })],
				['PUT', '/api/user/', root, (id) => ({ id: String(id), display_name: 'x' })],
				['POST', '/api/user/manage', root, (id) => ({ id, action: 'disable' })],
				['PUT', '/api/token/', user, (id) => ({ id, name: 'x' })],
				['PUT', '/api/channel/', root, (id) => ({ id, name: 'x' })],
				['POST', '/api/channel/batch', root, (id) => ({ ids: [id] })],
				['POST', '/api/channel/batch/tag', root, (id) => ({ ids: [String(id)], tag: 'x' })],
				['PUT', '/api/plan/', root, (id) => ({ id, name: 'x', price: 1, duration_seconds: 3600, windows: [{ seconds: 3600, quota: 1 }] })],
				['PUT', '/api/redemption/', root, (id) => ({ id, name: 'x' })],
				['POST', '/api/redemption/', root, (plan_id) => ({ name: 'x', plan_id })],
				['POST', '/api/affinity/purge', root, (user_id) => ({ user_id, model: 'gpt-4o', session: 's' })],
			]
			for (const [method, path, caller, body] of calls) {
				for (const id of PAST_LARGEST_ID) {
					const answer = await ferry.call(method, path, { as: caller, body: body(id) })
					expect({ call: `${method} ${path} ${JSON.stringify(body(id))}`, status: answer.status, success: answer.body.success }).toEqual({ call: `${method} ${path} ${JSON.stringify(body(id))}`, status: 400, success: false })
				}
			}
		})

		test('the new-user plan past the largest row id is refused as no plan, not looked up', async () => {
			const answer = await ferry.call('PUT', '/api/option/', { as: root, body: { key: 'DefaultPlanId', value: String(MAX_ROW_ID + 1) } })
			expect(answer.status).toBe(200)
			expect(answer.body.success).toBe(false)
			expect(ferry.dependencies.options.get('DefaultPlanId')).toBe(0)
		})

		test('a search keyword of digits past the largest row id matches names, never an id', async () => {
			await ferry.call('POST', '/api/channel/', { as: root, body: { type: CHANNEL_TYPE.openai, name: 'route 3000000000', key: 'sk-main', models: 'gpt-4o' } })
			const found = await ferry.call('GET', '/api/channel/search?keyword=3000000000', { as: root })
			expect(found.status).toBe(200)
			expect(found.body.data.items.map((item: { name: string }) => item.name)).toEqual(['route 3000000000'])
			for (const path of ['/api/user/search', '/api/redemption/search']) {
				const answer = await ferry.call('GET', `${path}?keyword=${MAX_ROW_ID + 1}`, { as: root })
				expect({ path, status: answer.status, items: answer.body.data?.items }).toEqual({ path, status: 200, items: [] })
			}
		})

		test('the NUL character anywhere in a body is a 400 saying so, in JSON or a form, and nothing is stored', async () => {
			const refusal = { success: false, message: MESSAGES.nulCharacter }
			for (const body of [{ name: 'a\u0000b' }, { name: 'fine', model_limits: '\u0000' }, { name: 'fine', extra: [{ deep: ['\u0000'] }] }, { name: 'fine', 'key\u0000': 1 }]) {
				const answer = await ferry.call('POST', '/api/token/', { as: user, body })
				expect({ body, status: answer.status, answer: answer.body }).toEqual({ body, status: 400, answer: refusal })
			}
			const form = await ferry.call('PUT', '/api/user/self', { as: user, body: 'display_name=a%00b', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
			expect({ status: form.status, answer: form.body }).toEqual({ status: 400, answer: refusal })
			const text = await ferry.call('POST', '/api/user/login', { body: 'a\u0000b', headers: { 'content-type': 'text/plain' } })
			expect({ status: text.status, answer: text.body }).toEqual({ status: 400, answer: refusal })
			expect((await ferry.call('GET', '/api/token/', { as: user })).body.data.total).toBe(0)
			expect((await ferry.call('GET', '/api/user/self', { as: user })).body.data.display_name).toBe('someone')
		})

		test('the NUL refusal is worded in the caller\'s language', async () => {
			const answer = await ferry.call('POST', '/api/token/', { as: user, body: { name: 'a\u0000b' }, headers: { 'accept-language': 'zh-CN' } })
			expect(answer.body).toEqual({ success: false, message: API_MESSAGES.nulCharacter })
		})

		test('text that only spells the escape, a backslash and u0000, is stored as written', async () => {
			const answer = await ferry.call('POST', '/api/token/', { as: user, body: { name: 'a\\u0000b' } })
			expect(answer.body.success).toBe(true)
			expect((await ferry.call('GET', '/api/token/', { as: user })).body.data.items[0].name).toBe('a\\u0000b')
		})

		test('an encoded NUL in a query or path is a 400 for a signed-in caller, and still a 401 for an anonymous one', async () => {
			const admin = await ferry.createUser('admin', ROLE.admin)
			for (const [path, caller] of [['/api/log/?username=a%00b', admin], ['/api/log/self?model_name=%00', user], ['/api/channel/search?keyword=%00', admin], ['/api/token/1%00', user]] as const) {
				const answer = await ferry.call('GET', path, { as: caller })
				expect({ path, status: answer.status, message: answer.body.message }).toEqual({ path, status: 400, message: path.includes('/token/') ? invalidField('id') : MESSAGES.nulCharacter })
				expect((await ferry.call('GET', path)).status).toBe(401)
			}
		})
	})
}
