/**
 * `GET /api/docs`: the repository's documentation as the binary carries it, for admins. The index
 * the binary embeds is the docs/ tree as it is now, and a page is found by its console path only.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { ROLE } from '@shared/user'
import { documentationPages, EMBEDDED_DOCS_FILE, embeddedDocsSource } from '../../scripts/embed-docs'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'

const root = resolve(import.meta.dir, '../..')

describe('the embedded documentation', () => {
	test('lists every page of docs/ and CONTRIBUTING.md as they are now (bun run docs:embed writes it)', () => {
		expect(readFileSync(resolve(root, EMBEDDED_DOCS_FILE), 'utf8')).toBe(embeddedDocsSource())
		expect(documentationPages()).toContain('docs/README.md')
		expect(documentationPages()).toContain('docs/guide/relay-and-clients.md')
	})

	test('gives every page one console path: no page outside docs/ shares its name with a docs/ page', () => {
		const pages = new Set(documentationPages())
		const outside = documentationPages().filter((page) => !page.startsWith('docs/'))
		expect(outside.filter((page) => pages.has(`docs/${page}`))).toEqual([])
	})
})

describe('reading the documentation', () => {
	let ferry: TestApp
	let admin: Caller
	let user: Caller

	beforeAll(async () => {
		ferry = await createTestApp(databaseTargets()[0]!)
		admin = await ferry.createUser('docs-admin', ROLE.admin)
		user = await ferry.createUser('docs-user')
	})
	afterAll(() => ferry.close())

	const read = (path: string, as?: Caller) => ferry.call('GET', `/api/docs?path=${encodeURIComponent(path)}`, { as })

	test('an admin reads the index, a guide page and CONTRIBUTING.md by their console paths, as the files say', async () => {
		const index = await read('', admin)
		expect(index.body).toMatchObject({ success: true, data: { path: 'docs/README.md' } })
		expect(index.body.data.markdown).toBe(readFileSync(resolve(root, 'docs/README.md'), 'utf8'))
		const guide = await read('guide/tokens.md', admin)
		expect(guide.body.data).toEqual({ path: 'docs/guide/tokens.md', markdown: readFileSync(resolve(root, 'docs/guide/tokens.md'), 'utf8') })
		expect((await read('CONTRIBUTING.md', admin)).body.data.path).toBe('CONTRIBUTING.md')
	})

	test.each(['guide/nothing.md', '../package.json', '../../src/config.ts', 'constructor', '__proto__', 'README.md/../../README.md', 'x'.repeat(200)])(
		'%p is not found: only the embedded pages exist',
		async (path) => {
			const answer = await read(path, admin)
			expect(answer.status).toBe(404)
			expect(answer.body.success).toBe(false)
		},
	)

	test('a path longer than 200 characters is a 4xx, never a 500', async () => {
		const answer = await read('a/'.repeat(150), admin)
		expect(answer.status).toBeGreaterThanOrEqual(400)
		expect(answer.status).toBeLessThan(500)
	})

	test('is for admins: a user is refused with 403, anyone signed out with 401', async () => {
		expect((await read('', user)).status).toBe(403)
		expect((await read('')).status).toBe(401)
	})
})
