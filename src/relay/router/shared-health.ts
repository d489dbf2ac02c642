/**
 * Key health shared between nodes: the cooldowns one node starts are written to the database
 * (`key_cooldowns`) and told to the others through the change feed (topic `health`: within
 * milliseconds with Redis, within a second by the polled counter without it), which read the
 * cooldowns still running and apply them. Writing and telling happen off the call's path; a lost
 * notice only lets another node find the upstream's 429 itself.
 */
import type { Dependencies } from '@/dependencies'
import { activeCooldowns, saveCooldown, sweepCooldowns } from '@/db/stores/key-cooldowns'
import { KeyHealth, type SharedCooldown } from './key-health'

/** Past cooldowns are deleted at most this often. */
const SWEEP_INTERVAL_MS = 60_000

export function createSharedKeyHealth({ store, changes, logger }: Dependencies): KeyHealth {
	let sweptAt = 0
	async function share(cooldown: SharedCooldown) {
		try {
			await saveCooldown(store, cooldown)
			changes.notify('health')
			const now = Date.now()
			if (now - sweptAt > SWEEP_INTERVAL_MS) {
				sweptAt = now
				await sweepCooldowns(store, now)
			}
		} catch (error) {
			logger.warn('could not share a key cooldown with the other nodes', { channelId: cooldown.channelId, key: cooldown.keyIndex, error: String(error) })
		}
	}
	const health = new KeyHealth((cooldown) => void share(cooldown))
	changes.subscribe('health', (origin) => {
		if (origin !== 'remote') return
		activeCooldowns(store, Date.now())
			.then((cooldowns) => {
				for (const cooldown of cooldowns) health.applyShared(cooldown)
			})
			.catch((error) => logger.warn('could not read the other nodes\' key cooldowns', { error: String(error) }))
	})
	return health
}
