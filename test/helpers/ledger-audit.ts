/**
 * The whole suite's ledger check (issue 6: "`ferry audit` reports no difference after the whole
 * suite's money movements"). Every store a test opens through `databaseTargets()` is audited with
 * `auditLedger` when the test closes it, and the ones still open are audited once after the last
 * file (test/setup.ts), so any test that moves money outside the ledger fails the run.
 *
 * A test that breaks the invariant on purpose (to show the audit finds it) or writes a balance
 * directly as a fixture says so with `exemptFromLedgerAudit`.
 */
import { auditLedger } from '@/billing/audit'
import type { Store } from '@/db'

const watched = new Map<Store, string>()
const exempt = new WeakSet<Store>()
const findings: string[] = []

/** Settles and voids still committing when a test ends can make one read inconsistent; ask again before believing it. */
const SETTLE_RETRIES = 3
const RETRY_DELAY_MS = 200

/** The test file that opened the store, for the finding's message. */
function openerOf(stack = new Error().stack ?? ''): string {
	const line = stack.split('\n').find((entry) => /\.test\.tsx?/.test(entry))
	return line?.match(/([\w./-]+\.test\.tsx?)/)?.[1] ?? 'an unknown test'
}

async function audit(store: Store, opener: string) {
	if (exempt.has(store)) return
	let differences = await auditLedger(store)
	for (let attempt = 0; differences.length > 0 && attempt < SETTLE_RETRIES; attempt += 1) {
		await Bun.sleep(RETRY_DELAY_MS)
		differences = await auditLedger(store)
	}
	if (differences.length > 0) findings.push(`${opener} (${store.dialect}): ${differences.map((difference) => JSON.stringify(difference)).join('; ')}`)
}

/** Wraps `close` so the ledger is audited before the store goes away. */
export function watchLedger(store: Store): Store {
	const opener = openerOf()
	const watchedStore: Store = {
		...store,
		async close() {
			watched.delete(watchedStore)
			await audit(watchedStore, opener).catch((error) => findings.push(`${opener}: the audit could not run: ${String(error)}`))
			await store.close()
		},
	}
	watched.set(watchedStore, opener)
	return watchedStore
}

export function exemptFromLedgerAudit(store: Store, reason: string) {
	void reason
	exempt.add(store)
}

/** Audits the stores no test closed, then answers every finding of the run. */
export async function ledgerFindings(): Promise<string[]> {
	for (const [store, opener] of watched) await audit(store, opener).catch(() => {})
	watched.clear()
	return findings
}
