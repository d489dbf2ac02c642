import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { MESSAGES } from '@shared/api'
import { createTestApp, type TestApp } from '../helpers/app'
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
