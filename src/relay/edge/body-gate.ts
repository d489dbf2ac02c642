/**
 * Who may have a large body parsed (read-body.ts): a caller whose wallet, and whose token when it
 * is limited, hold quota. Every paid call needs a hold, which such a caller could not take, so the
 * refusal is the one the hold would give; `count_tokens` is free but reads whole prompts, and is
 * refused likewise past `LARGE_BODY_BYTES`. Read from the database: balances change every call.
 */
import type { Dependencies } from '@/dependencies'
import { relayErrors } from '../errors'
import type { BodyGate } from './read-body'
import type { RelayCaller } from '../caller'

const BALANCES = 'SELECT u.quota, t.remain_quota FROM users u LEFT JOIN tokens t ON t.id = $2 WHERE u.id = $1'

export function createBodyGate({ store, config }: Dependencies) {
	return (caller: RelayCaller): BodyGate => ({
		maxBytes: config.maxBodyBytes,
		async admitLarge() {
			const [balances] = await store.read<{ quota: number; remain_quota: number | null }>(BALANCES, [caller.user.id, caller.token.id])
			if (!balances || Number(balances.quota) <= 0) throw relayErrors.insufficientUserQuota()
			if (!caller.token.unlimited && balances.remain_quota !== null && Number(balances.remain_quota) <= 0) throw relayErrors.insufficientTokenQuota()
		},
	})
}
