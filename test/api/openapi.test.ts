/**
 * The OpenAPI document (issue 17): every `/api` route of the route table and the relay's endpoints,
 * with the request schemas taken from the routes' zod schemas.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ROUTE_POLICY } from '@/api/route-policy'
import { createTestApp, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'

type Operation = { tags?: string[]; parameters?: { name: string; in: string }[]; requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> } }
type Document = { openapi: string; info: { title: string }; paths: Record<string, Record<string, Operation>> }

describe('the OpenAPI document', () => {
	let ferry: TestApp
	let document: Document

	beforeAll(async () => {
		ferry = await createTestApp(databaseTargets()[0]!)
		const response = await ferry.app.handle(new Request('http://localhost/openapi/json'))
		expect(response.status).toBe(200)
		document = await response.json()
	})
	afterAll(() => ferry.close())

	test('is OpenAPI 3 and names Ferry', () => {
		expect(document.openapi).toStartWith('3.')
		expect(document.info.title).toBe('Ferry')
	})

	test('lists every route of the management API\'s route table with its method', () => {
		const missing = Object.keys(ROUTE_POLICY).filter((route) => {
			const [method, path] = route.split(' ') as [string, string]
			const documented = path.replace(/:(\w+)/g, '{$1}')
			return !document.paths[documented]?.[method.toLowerCase()]
		})
		expect(missing).toEqual([])
	})

	test('lists the relay\'s endpoints in the OpenAI, Claude and Gemini formats, tagged as the relay', () => {
		for (const [path, method] of [
			['/v1/chat/completions', 'post'], ['/v1/completions', 'post'], ['/v1/embeddings', 'post'], ['/v1/rerank', 'post'],
			['/v1/models', 'get'], ['/v1/models/{model}', 'get'], ['/v1/messages', 'post'], ['/v1/messages/count_tokens', 'post'],
			['/v1beta/models/{model}:generateContent', 'post'], ['/v1beta/models/{model}:streamGenerateContent', 'post'],
			['/v1/dashboard/billing/subscription', 'get'], ['/dashboard/billing/subscription', 'get'], ['/dashboard/billing/usage', 'get'],
			['/v1/videos', 'post'], ['/v1/videos/{id}/content', 'get'], ['/kling/v1/videos/text2video', 'post'],
		] as const) {
			expect(document.paths[path]?.[method]?.tags).toEqual(['relay'])
		}
		expect(document.paths['/api/channel/']?.get?.tags).toEqual(['management'])
		// Catch-alls and the console's pages are not API (OpenAI's legacy billing paths are, also without /v1).
		expect(Object.keys(document.paths).filter((path) => path.includes('*') || !/^\/(api|v1|v1beta|pg|mj|suno|kling|(fast|relax|turbo)\/mj|dashboard\/billing)\//.test(path))).toEqual([])
	})

	test('describes JSON bodies and query parameters from the routes\' zod schemas', () => {
		const createChannel = document.paths['/api/channel/']!.post!.requestBody!.content['application/json']!.schema
		expect(Object.keys(createChannel.properties!)).toEqual(expect.arrayContaining(['type', 'name', 'key', 'base_url', 'models', 'group']))
		const login = document.paths['/api/user/login']!.post!.requestBody!.content['application/json']!.schema
		expect(login.required).toEqual(expect.arrayContaining(['username', 'password']))
		const logQuery = (document.paths['/api/log/']!.get!.parameters ?? []).map((parameter) => `${parameter.in}:${parameter.name}`)
		expect(logQuery).toEqual(expect.arrayContaining(['query:p', 'query:page_size', 'query:type', 'query:username', 'query:start_timestamp']))
		expect(document.paths['/api/channel/{id}']!.get!.parameters).toContainEqual(expect.objectContaining({ name: 'id', in: 'path' }))
	})

	test('the reference page loads its script and styles from this server, not from a CDN', async () => {
		const page = await (await ferry.app.handle(new Request('http://localhost/openapi'))).text()
		const sources = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!)
		expect(sources.length).toBeGreaterThanOrEqual(2)
		for (const source of sources) {
			expect(source).toStartWith('/openapi/assets/')
			const asset = await ferry.app.handle(new Request(`http://localhost${source}`))
			expect(asset.status).toBe(200)
			expect((await asset.bytes()).length).toBeGreaterThan(10_000)
		}
	})
})
