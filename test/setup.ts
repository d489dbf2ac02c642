// Preloaded by bunfig.toml before every test file.
import { afterAll } from 'bun:test'
import { ledgerFindings } from './helpers/ledger-audit'

process.env.NODE_ENV ??= 'test'

// Runs once, after the last file: the suite's money movements must leave every ledger balanced.
afterAll(async () => {
	const findings = await ledgerFindings()
	if (findings.length > 0) throw new Error(`the ledger audit found differences after the suite:\n${findings.join('\n')}`)
})
