// Preloaded by bunfig.toml before every test file.
import { afterAll } from 'bun:test'
import { plugin } from 'bun'
import { ledgerFindings } from './helpers/ledger-audit'

process.env.NODE_ENV ??= 'test'

/**
 * Every test and every hook (beforeAll, afterEach, …) may take this long: the database and browser
 * suites open real servers, Postgres and Chromium, on shared and sometimes slow machines.
 */
export const TEST_TIMEOUT_MS = 30_000

// Bun 1.4.5 reads no `timeout` from bunfig.toml, and a `setDefaultTimeout` made here holds for the
// first test file only: a plain `bun test` gave every other test and hook 5 s, which a loaded machine
// overran. So each test file sets it first thing, before its tests and hooks are declared (they take
// the default when declared). Prepended on the file's first line: line numbers in errors stay true.
plugin({
	name: 'test timeout',
	setup(build) {
		build.onLoad({ filter: /\.test\.ts$/ }, async ({ path }) => ({
			contents: `import { setDefaultTimeout as setTestTimeout } from 'bun:test'; setTestTimeout(${TEST_TIMEOUT_MS}); ${await Bun.file(path).text()}`,
			loader: 'ts',
		}))
	},
})

// Runs once, after the last file: the suite's money movements must leave every ledger balanced.
afterAll(async () => {
	const findings = await ledgerFindings()
	if (findings.length > 0) throw new Error(`the ledger audit found differences after the suite:\n${findings.join('\n')}`)
})
