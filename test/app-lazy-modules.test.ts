/**
 * What a started Ferry loads only when first needed (idle memory, issue 18): the OpenAPI plugin on
 * the first request for the API reference, React and the console's pages on the first page, the
 * tokenizer on the first local count, jose on the first session or JWT-signed upstream call. Each
 * first request is still answered in full. A SQLite node never loads the Postgres migrations' SQL.
 * A provider's adaptor loads with the routing table that has a channel of its type. The management
 * API's routes, all but `/api/status` and the other public reads, load on the first request for one.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'

type Loaded = { openapi: boolean; react: boolean; tokenizer: boolean; jose: boolean; pgMigrations: boolean; anthropicAdaptor: boolean; managementApi: boolean }
type Report = {
	atStart: Loaded; afterStatus: Loaded; afterManagement: Loaded; afterReference: Loaded; afterPage: Loaded; afterChannel: Loaded; afterRouting: Loaded
	statuses: number[]; page: string; firstManagement: unknown
}

describe('modules loaded on first use', () => {
	let report: Report

	beforeAll(async () => {
		const child = Bun.spawn([process.execPath, join(import.meta.dir, 'fixtures', 'loaded-modules.ts')], { cwd: join(import.meta.dir, '..'), stdout: 'pipe', stderr: 'pipe' })
		const [output, errors, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
		if (exitCode !== 0) throw new Error(`the fixture failed: ${errors}`)
		report = JSON.parse(output.trim().split('\n').at(-1)!)
		// A cold start (one of CI's first suites, nothing in the page cache yet) outlasted bun's 5 s default.
	}, 30_000)

	test('a started app has loaded neither the OpenAPI plugin, nor React, nor the tokenizer, nor jose', () => {
		expect(report.atStart).toMatchObject({ openapi: false, react: false, tokenizer: false, jose: false })
	})

	test('neither a started app nor /api/status has loaded the management API\'s other routes', () => {
		expect(report.statuses[3]).toBe(200)
		expect(report.atStart.managementApi).toBe(false)
		expect(report.afterStatus.managementApi).toBe(false)
	})

	test('the first request for another management route loads them and is answered in the envelope', () => {
		expect(report.afterManagement.managementApi).toBe(true)
		expect(report.statuses[4]).toBe(401)
		expect(report.firstManagement).toEqual({ success: false, message: 'not logged in or login expired, please log in again' })
	})

	test('a started SQLite app has migrated its database without loading the Postgres migrations', () => {
		expect(report.atStart.pgMigrations).toBe(false)
		expect(report.afterPage.pgMigrations).toBe(false)
	})

	test('the first request for the API reference loads the OpenAPI plugin and gets the document', () => {
		expect(report.statuses[0]).toBe(200)
		expect(report.afterReference).toMatchObject({ openapi: true, react: false, tokenizer: false })
	})

	test('the first console page loads React and is rendered in full on the server', () => {
		expect(report.statuses[1]).toBe(200)
		expect(report.afterPage.react).toBe(true)
		expect(report.page).toContain('<form')
	})

	test('a provider\'s adaptor is not loaded until the routing table has a channel of its type, then it is', () => {
		expect(report.statuses[2]).toBe(200)
		expect(report.atStart.anthropicAdaptor).toBe(false)
		expect(report.afterChannel.anthropicAdaptor).toBe(false)
		expect(report.afterRouting.anthropicAdaptor).toBe(true)
	})
})
