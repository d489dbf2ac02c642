/**
 * Frees holds whose owner can no longer close them (docs/architecture.md#the-ledger): at start-up every pending hold of
 * an earlier run of this node, and every 2 s any pending hold past its deadline — a call's after an
 * hour, an allowance's (allowances.ts) once its node stopped renewing the lease, which is why it looks this often. Each is voided
 * with reason `interrupted` and the user's log says so. The hold of an async task that is still
 * alive is never freed here, whatever its deadline: the task's end settles or returns it
 * (task-holds.ts).
 */
import { and, eq, lt, ne, or, sql } from 'drizzle-orm'
import { LOG_TYPE } from '@shared/log'
import { rows, type Store } from '@/db'
import { nowSeconds } from '@/lib/clock'
import type { Logger } from '@/lib/logger'
import { HOLD_STATE, voidHoldWork } from './holds'
import { isLiveTaskHold } from './task-holds'
import { storedLine } from '@shared/messages/logs'

const RECONCILE_INTERVAL_MS = 2_000
export const INTERRUPTED = 'interrupted'

/**
 * `node` values look like `<node name>/<boot id>`, so a restarted node recognises its old holds. The
 * node name has no "/" (config.ts checks NODE_NAME), so the name is all before the last one.
 */
export function nodeInstance(nodeName: string, bootId: string) {
	return `${nodeName}/${bootId}`
}

/** The node name a `node` value starts with. */
function nodeNameOf(instance: string): string {
	const separator = instance.lastIndexOf('/')
	return separator < 0 ? instance : instance.slice(0, separator)
}

export async function reconcileHolds(store: Store, currentInstance: string): Promise<number> {
	const { quotaHolds } = store.tables
	const nodeName = nodeNameOf(currentInstance)
	const earlierRun = `${nodeName}/`
	const now = nowSeconds()
	// Pending holds are few (requests in flight and allowances), and the partial index on them finds them.
	const candidates = await store.db.select({ requestId: quotaHolds.requestId, node: quotaHolds.node, deadline: quotaHolds.deadline }).from(quotaHolds).where(and(
		eq(quotaHolds.state, HOLD_STATE.pending),
		or(lt(quotaHolds.deadline, now), and(eq(sql`substr(${quotaHolds.node}, 1, ${earlierRun.length})`, earlierRun), ne(quotaHolds.node, currentInstance))),
	))
	// The prefix also matches a node whose name goes on past it ("a/" of "a/1/boot"): only this node's own name counts.
	const orphaned = candidates.filter((hold) => hold.deadline < now || nodeNameOf(hold.node) === nodeName)
	let freed = 0
	for (const { requestId } of orphaned) {
		const voided = await store.transaction(function* (tx, tables) {
			// Checked in the void's own transaction: a task that is still alive keeps its hold.
			if (yield* isLiveTaskHold(tx, tables, requestId)) return false
			const hold = yield* voidHoldWork(requestId, INTERRUPTED)
			if (!hold) return false
			yield* rows(tx.insert(tables.logs).values({
				userId: hold.userId, type: LOG_TYPE.system, requestId, tokenId: hold.tokenId, quota: 0,
				...storedLine('hold.returned', { request: requestId, quota: hold.amount }),
			}).returning({ id: tables.logs.id }))
			return true
		})
		if (voided) freed++
	}
	return freed
}

export function startReconciler(store: Store, currentInstance: string, logger: Logger): () => void {
	const run = () => reconcileHolds(store, currentInstance)
		.then((freed) => { if (freed) logger.warn(`returned ${freed} interrupted request hold(s)`) })
		.catch((error) => logger.error('reconciling holds failed', { error: String(error) }))
	void run()
	const timer = setInterval(run, RECONCILE_INTERVAL_MS)
	timer.unref?.()
	return () => clearInterval(timer)
}
