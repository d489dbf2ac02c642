/**
 * Session affinity as the super admin manages it: `POST /api/affinity/purge` forgets one session —
 * named as its client sent it, with its user and model, since Ferry keeps only a hash of the three —
 * or, with no session named, every session. Answers `{ purged }`: how many entries were forgotten
 * (this node's, or the shared ones in Redis).
 */
import { z } from 'zod'
import { rowIdSchema } from './api'
import { AFFINITY_MESSAGES } from './messages/affinity'

export { AFFINITY_MESSAGES }

export const purgeAffinitySchema = z.object({
	user_id: rowIdSchema.optional(),
	model: z.string().trim().min(1).max(200).optional(),
	session: z.string().trim().min(1).max(4096).optional(),
}).refine((body) => body.session === undefined || (body.user_id !== undefined && body.model !== undefined), { message: AFFINITY_MESSAGES.sessionNeedsUserAndModel })
export type PurgeAffinityInput = z.infer<typeof purgeAffinitySchema>

export type PurgeAffinityAnswer = { purged: number }
