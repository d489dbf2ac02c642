/**
 * What happened on a key's last call or test: its last error, response time and test time. The
 * relay records an outcome per call through `createKeyOutcomeRecorder`, which keeps only the
 * latest per key in memory and writes them all together at most once per interval, so a busy
 * relay does not write per call; tests write at once (`recordKeyOutcome`).
 *
 * A key is `{channel, index}`: its `channel_keys` row takes all three; the channel takes the
 * response and test times too (so a single-key channel, which has no row, keeps today's columns,
 * and a multi-key channel shows its latest). A single-key channel has no place for the error:
 * its errors are in the log.
 */
import { and, eq } from 'drizzle-orm'
import { KEY_LAST_ERROR_MAX_LENGTH } from '@shared/channel-constants'
import { inEnglish, isLocalizedMessage, type LocalizedMessage } from '@shared/messages'
import { run, type Database, type Store, type Tables } from '@/db'
import { storableText } from '@/db/stored-text'
import { nowSeconds } from '@/lib/clock'
import type { KeyRef } from './channel-keys'

export interface KeyOutcome {
	/** Milliseconds the call or test took. */
	responseTime?: number
	/** A test: `test_time` becomes now. */
	tested?: boolean
	/**
	 * The error, scrubbed by the caller of the channel's secrets: the upstream's own words, or a
	 * catalogue message (worded in the reader's language when shown). `null` clears it (a passing
	 * test); absent keeps it.
	 */
	error?: string | LocalizedMessage | null
	/** The key itself, masked out of `error` as a last guard. */
	secret?: string
}

/** Keys shorter than this are not masked out of an error (they would match ordinary words). */
const MASKED_SECRET_MIN_LENGTH = 8
/** A stored catalogue message longer than this is stored as its English instead. */
const MESSAGE_JSON_MAX_LENGTH = KEY_LAST_ERROR_MAX_LENGTH * 4

/** An upstream's words, which may quote what a client sent (a NUL too): storable, or a NUL would fail the write of every key's outcome. */
function capped(text: string, secret: string | undefined): string {
	const masked = secret && secret.length >= MASKED_SECRET_MIN_LENGTH ? text.replaceAll(secret, '***') : text
	return storableText(masked.slice(0, KEY_LAST_ERROR_MAX_LENGTH))
}

/** `last_error` as stored: plain text, or a catalogue message as JSON `{text, values}`; at most KEY_LAST_ERROR_MAX_LENGTH characters shown. */
export function lastErrorText(error: string | LocalizedMessage, secret?: string): string {
	if (typeof error === 'string') return capped(error, secret)
	const json = JSON.stringify(error)
	if (json.length > MESSAGE_JSON_MAX_LENGTH || (secret && secret.length >= MASKED_SECRET_MIN_LENGTH && json.includes(secret))) return capped(inEnglish(error), secret)
	return json
}

/** The stored `last_error` as a message to word, or as plain text. */
export function storedLastError(text: string): string | LocalizedMessage {
	if (!text.startsWith('{')) return text
	try {
		const parsed: unknown = JSON.parse(text)
		return isLocalizedMessage(parsed) ? parsed : text
	} catch {
		return text
	}
}

type PendingOutcome = { ref: KeyRef; responseTime?: number; testTime?: number; lastError?: string }

function merge(pending: PendingOutcome | undefined, ref: KeyRef, outcome: KeyOutcome, now: number): PendingOutcome {
	const next: PendingOutcome = pending ?? { ref }
	if (outcome.responseTime !== undefined) next.responseTime = Math.max(0, Math.round(outcome.responseTime))
	if (outcome.tested) next.testTime = now
	if (outcome.error === null) next.lastError = ''
	else if (outcome.error !== undefined) next.lastError = lastErrorText(outcome.error, outcome.secret)
	return next
}

/** Unit of work: the outcomes on their keys and channels. */
function* writeOutcomes(tx: Database, tables: Tables, outcomes: readonly PendingOutcome[]) {
	const { channels, channelKeys } = tables
	for (const { ref, responseTime, testTime, lastError } of outcomes) {
		const keyColumns = {
			...(responseTime !== undefined ? { responseTime } : {}),
			...(testTime !== undefined ? { testTime } : {}),
			...(lastError !== undefined ? { lastError } : {}),
		}
		if (Object.keys(keyColumns).length > 0) {
			yield* run(tx.update(channelKeys).set(keyColumns).where(and(eq(channelKeys.channelId, ref.channelId), eq(channelKeys.position, ref.index))))
		}
		const channelColumns = { ...(responseTime !== undefined ? { responseTime } : {}), ...(testTime !== undefined ? { testTime } : {}) }
		if (Object.keys(channelColumns).length > 0) yield* run(tx.update(channels).set(channelColumns).where(eq(channels.id, ref.channelId)))
	}
}

/** Writes one outcome at once (a test the admin waits for). */
export async function recordKeyOutcome(store: Store, ref: KeyRef, outcome: KeyOutcome): Promise<void> {
	const pending = merge(undefined, ref, outcome, nowSeconds())
	await store.transaction((tx, tables) => writeOutcomes(tx, tables, [pending]))
}

export interface KeyOutcomeRecorder {
	/** Keeps the outcome (merged into the key's pending one); written within the interval. */
	record(ref: KeyRef, outcome: KeyOutcome): void
	/** Writes everything pending now. */
	flush(): Promise<void>
	/** Writes everything pending and stops the timer. */
	close(): Promise<void>
}

const KEY_OUTCOME_WRITE_INTERVAL_MS = 10_000

/**
 * The relay's recorder: the latest outcome per key in memory, all of them written in one
 * transaction at most once per `intervalMs`. A failed write is dropped (these are statistics, the
 * next call brings fresh ones); `onWriteError` hears of it.
 */
export function createKeyOutcomeRecorder(
	store: Store,
	{ intervalMs = KEY_OUTCOME_WRITE_INTERVAL_MS, now = nowSeconds, onWriteError }: { intervalMs?: number; now?: () => number; onWriteError?: (error: unknown) => void } = {},
): KeyOutcomeRecorder {
	let pending = new Map<string, PendingOutcome>()
	let timer: ReturnType<typeof setTimeout> | undefined
	let closed = false

	async function flush() {
		if (timer) clearTimeout(timer)
		timer = undefined
		if (pending.size === 0) return
		const outcomes = [...pending.values()]
		pending = new Map()
		try {
			await store.transaction((tx, tables) => writeOutcomes(tx, tables, outcomes))
		} catch (error) {
			onWriteError?.(error)
		}
	}

	return {
		record(ref, outcome) {
			const id = `${ref.channelId}:${ref.index}`
			pending.set(id, merge(pending.get(id), ref, outcome, now()))
			if (timer || closed) return
			timer = setTimeout(() => void flush(), intervalMs)
			timer.unref?.()
		},
		flush,
		async close() {
			closed = true
			await flush()
		},
	}
}
