/**
 * The command line of `ferry import new-api` (issue 19), run as a user runs it: `--dry-run` changes
 * nothing (no data directory, no database, the source untouched), an import into an empty data
 * directory leaves `ferry audit` clean, and an import into a database that already has users is
 * refused and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Database } from 'bun:sqlite'
import { MAX_QUOTA } from '@shared/quota-limit'
import { newApiFixture, PUBLISHED_BCRYPT, writeSqliteSource } from '../helpers/new-api-source'

const root = resolve(import.meta.dir, '../..')

/** Runs `bun src/main.ts …` with only the environment a user would have: no DATABASE_URL, no secrets. */
async function ferry(...argv: string[]) {
	const child = Bun.spawn(['bun', 'src/main.ts', ...argv], {
		cwd: root,
		env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
		stdout: 'pipe',
		stderr: 'pipe',
	})
	const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
	return { stdout, stderr, code }
}

const digest = (path: string) => new Bun.CryptoHasher('sha256').update(readFileSync(path)).digest('hex')
const userCount = (dataDir: string) => {
	const database = new Database(join(dataDir, 'ferry.db'), { readonly: true })
	const { total } = database.query('SELECT count(*) AS total FROM users').get() as { total: number }
	database.close()
	return total
}

describe('ferry import new-api on the command line', () => {
	let directory: string
	let source: string

	beforeAll(async () => {
		directory = mkdtempSync(join(tmpdir(), 'ferry-import-cli-'))
		source = join(directory, 'one-api.db')
		writeSqliteSource(source, (await newApiFixture('https://api.openai.com')).rows)
	})
	afterAll(() => rmSync(directory, { recursive: true, force: true }))

	test('--dry-run prints what would come over and what not, and writes nothing anywhere', async () => {
		const dataDir = join(directory, 'dry')
		const before = digest(source)
		const run = await ferry('import', 'new-api', source, '--dry-run', '--with-logs', '--data-dir', dataDir)
		expect(run).toMatchObject({ code: 0, stderr: '' })
		expect(run.stdout).toContain('dry run: nothing was written')
		expect(run.stdout).toContain('tokens: 9 read, 8 imported, 1 skipped')
		expect(run.stdout).toContain('skipped — Ferry does not serve Jimeng channels: 2 "video"')
		expect(run.stdout).toContain('read users: 5 rows')
		expect(existsSync(dataDir)).toBe(false)
		expect(digest(source)).toBe(before)
	})

	test('an import into an empty data directory leaves the ledger audit clean, and a second import is refused', async () => {
		const dataDir = join(directory, 'fresh')
		const imported = await ferry('import', 'new-api', source, '--data-dir', dataDir)
		expect(imported).toMatchObject({ code: 0, stderr: '' })
		expect(imported.stdout).toContain('wrote users: 5')
		expect(imported.stdout).toContain('opened balances: 5 users')
		const audit = await ferry('audit', '--data-dir', dataDir)
		expect(audit).toMatchObject({ code: 0 })
		expect(audit.stdout).toContain('ledger audit: no differences')

		const again = await ferry('import', 'new-api', source, '--data-dir', dataDir)
		expect(again.code).toBe(1)
		expect(again.stderr).toContain('already holds data (5 users, 8 tokens, 3 channels, 3 redemption codes, 7 log lines)')
		expect(userCount(dataDir)).toBe(5)
	})

	test('an import into a database where Ferry already runs (its root user exists) is refused and changes nothing', async () => {
		const dataDir = join(directory, 'started')
		const started = Bun.spawn(['bun', 'src/main.ts', '--data-dir', dataDir, '--port', '0', '--host', '127.0.0.1'], {
			cwd: root, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' }, stdout: 'pipe', stderr: 'pipe',
		})
		const reader = started.stdout.getReader()
		let output = ''
		while (!output.includes('Ferry listening')) {
			const { value, done } = await reader.read()
			if (done) break
			output += new TextDecoder().decode(value)
		}
		started.kill()
		await started.exited
		expect(userCount(dataDir)).toBe(1)

		const refused = await ferry('import', 'new-api', source, '--data-dir', dataDir)
		expect(refused.code).toBe(1)
		expect(refused.stderr).toContain('already holds data (1 users')
		expect(refused.stderr).toContain('an import goes only into an empty database')
		expect(userCount(dataDir)).toBe(1)
	})

	test('a name taken twice and a balance above the maximum are rows of the report, not a crash: code 0 and nothing on stderr', async () => {
		const awkward = join(directory, 'awkward.db')
		const user = (id: number, username: string, quota: number) => ({ id, username, password: PUBLISHED_BCRYPT.hash, role: id === 1 ? 100 : 1, status: 1, quota, used_quota: 0 })
		writeSqliteSource(awkward, { users: [user(1, 'root', 10), user(2, 'alice', 20), user(3, 'alice ', 30), user(4, 'whale', MAX_QUOTA + 1)] })
		const dataDir = join(directory, 'awkward')
		const imported = await ferry('import', 'new-api', awkward, '--data-dir', dataDir)
		expect(imported).toMatchObject({ code: 0, stderr: '' })
		expect(imported.stdout).toContain('users: 4 read, 3 imported, 1 skipped')
		expect(imported.stdout).toContain('note — username already used by another user: imported with its id appended: 3 (alice → alice_3)')
		expect(imported.stdout).toContain(`skipped — balance above Ferry's maximum of ${MAX_QUOTA} quota: lower it in new-api and import again: 4`)
		const audit = await ferry('audit', '--data-dir', dataDir)
		expect(audit).toMatchObject({ code: 0 })
	})

	test('a fatal problem (a target database that cannot be reached) ends with code 1 and one line on stderr, no stack trace', async () => {
		const run = await ferry('import', 'new-api', source, '--data-dir', join(directory, 'unreachable'), '--database-url', 'postgres://ferry:ferry@127.0.0.1:1/nowhere')
		expect(run.code).toBe(1)
		expect(run.stderr.trim().split('\n')).toHaveLength(1)
		expect(run.stderr).toStartWith('ferry import: failed: ')
		expect(run.stderr).not.toContain('    at ')
	})

	test('a source that is not a new-api database, or not there, is named in a clear error', async () => {
		const empty = join(directory, 'empty.db')
		writeFileSync(empty, '')
		const notNewApi = await ferry('import', 'new-api', empty, '--dry-run')
		expect(notNewApi).toMatchObject({ code: 1 })
		expect(notNewApi.stderr).toContain('has no users table: it is not a new-api or one-api database')
		const missing = await ferry('import', 'new-api', join(directory, 'nowhere.db'), '--dry-run')
		expect(missing).toMatchObject({ code: 1 })
		expect(missing.stderr).toContain('no new-api database at')
		const usage = await ferry('import', 'new-api')
		expect(usage.code).toBe(2)
		expect(usage.stderr).toContain('usage: ferry import new-api')
	})
})
