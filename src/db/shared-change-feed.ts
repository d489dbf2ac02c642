/**
 * The change feed across nodes (docs/operations/several-nodes.md#what-the-nodes-share): a change told to this node reaches its own caches at
 * once and bumps the topic's counter in `change_versions`; every node polls the counters (one
 * small read a second) and tells its caches about the topics another node bumped (origin
 * `remote`); its own bumps are not told twice. So a token
 * disabled, a channel edited or an option saved on one node takes effect on all within a second,
 * with no Redis needed.
 *
 * With Redis, the node also publishes each bump (`<node> <topic> <version>`, after the bump
 * committed) and the others hear it within milliseconds. The polled counter stays: it carries every
 * change whenever Redis is down, slow or loses a message, and a change heard through Redis moves the
 * node's view of the counter so the poll does not tell it again. A failing publish is only logged.
 */
import { type ChangeFeed, type ChangeTopic, CHANGE_TOPICS, createChangeFeed } from '@/lib/change-feed'
import type { Logger } from '@/lib/logger'
import type { RedisLink } from '@/lib/redis'
import { randomString } from '@/lib/crypto'
import { query, type Store } from './index'

const CHANGE_POLL_INTERVAL_MS = 1_000
/** The Redis channel (under the link's prefix) that carries change notices. */
export const CHANGE_CHANNEL = 'changes'
const NODE_ID_LENGTH = 12

const BUMP = `INSERT INTO change_versions (topic, version) VALUES ($1, 1)
	ON CONFLICT (topic) DO UPDATE SET version = change_versions.version + 1 RETURNING version`
const READ_VERSIONS = 'SELECT topic, version FROM change_versions'

export interface SharedChangeFeed extends ChangeFeed {
	/** Reads the counters once and tells local listeners about topics bumped since the last look. */
	poll(): Promise<void>
	/** Polls every `intervalMs` until the returned function is called. */
	start(intervalMs?: number): () => void
}

export function createSharedChangeFeed(store: Store, logger: Logger, redis?: RedisLink): SharedChangeFeed {
	const local = createChangeFeed()
	let seen: Map<string, number> | undefined
	let polling: Promise<void> | undefined
	const nodeId = randomString(NODE_ID_LENGTH)

	/** Our own view of the counter moves only by one: a skipped version is left for the poll to tell. */
	function advanceSeen(topic: string, version: number) {
		if (seen && (seen.get(topic) ?? 0) === version - 1) seen.set(topic, version)
	}

	redis?.subscribe(CHANGE_CHANNEL, (message) => {
		const [sender, topic, versionText] = message.split(' ')
		if (sender === nodeId || !CHANGE_TOPICS.includes(topic as ChangeTopic)) return
		const version = Number(versionText)
		// Heard already through the poll (or an earlier message): nothing new.
		if (seen && (seen.get(topic!) ?? 0) >= version) return
		advanceSeen(topic!, version)
		local.notify(topic as ChangeTopic, 'remote')
	})

	function publish(topic: ChangeTopic, version: number) {
		if (!redis?.available()) return
		redis.command((client) => client.publish(`${redis.prefix}${CHANGE_CHANNEL}`, `${nodeId} ${topic} ${version}`))
			.catch((error) => logger.debug('could not publish a change through Redis; the database counter carries it', { topic, error: String(error) }))
	}

	async function readVersions() {
		const found = new Map<string, number>()
		for (const row of await store.read<{ topic: string; version: number }>(READ_VERSIONS)) found.set(row.topic, Number(row.version))
		return found
	}

	async function pollOnce() {
		const current = await readVersions()
		const previous = seen
		seen = current
		// The first look only sets the baseline: this node's caches start empty anyway.
		if (!previous) return
		for (const topic of CHANGE_TOPICS) {
			if ((current.get(topic) ?? 0) !== (previous.get(topic) ?? 0)) local.notify(topic, 'remote')
		}
	}

	return {
		subscribe: local.subscribe,
		notify(topic: ChangeTopic) {
			local.notify(topic, 'local')
			// After the change itself committed, so a node that sees the new counter reads the new rows.
			store.transaction(function* () {
				return yield* query<{ version: number }>(BUMP, [topic])
			}).then(([row]) => {
				// Our own bump, unless another node bumped in between: then the next poll tells it.
				const version = Number(row?.version)
				advanceSeen(topic, version)
				publish(topic, version)
			}).catch((error) => logger.warn('could not publish a change to other nodes', { topic, error: String(error) }))
		},
		poll() {
			polling ??= pollOnce().finally(() => {
				polling = undefined
			})
			return polling
		},
		start(intervalMs = CHANGE_POLL_INTERVAL_MS) {
			const run = () => this.poll().catch((error) => logger.warn('polling for changes failed', { error: String(error) }))
			void run()
			const timer = setInterval(run, intervalMs)
			timer.unref?.()
			return () => clearInterval(timer)
		},
	}
}
