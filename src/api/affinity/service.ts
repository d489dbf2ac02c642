import type { PurgeAffinityInput } from '@shared/affinity'
import type { Dependencies } from '@/dependencies'
import { sessionId } from '@/lib/session-affinity'

/**
 * Forgets one session (its hash, from what the client sent, the user and the model) or every one.
 * Every node is told of a purge of all (change topic `affinity`) and forgets what it keeps in memory.
 */
export async function purgeAffinity({ affinity, changes }: Dependencies, input: PurgeAffinityInput): Promise<number> {
	if (input.session !== undefined) return affinity.purge(sessionId(input.user_id!, input.model!, input.session))
	const purged = await affinity.purge()
	changes.notify('affinity')
	return purged
}
