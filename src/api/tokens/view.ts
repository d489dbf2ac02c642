import type { TokenView } from '@shared/token'
import type { Tables } from '@/db'
import { readTokenWindows } from '@/billing/token-windows'
import type { SecretBox } from '@/lib/crypto'
import { displayTokenKey } from '@/auth/token-keys'
import { effectiveStatus } from '@/auth/token-status'

export type TokenRecord = Tables['tokens']['$inferSelect']
export type TokenPeriodRecord = Tables['tokenPeriods']['$inferSelect']

/**
 * Only for the token's owner: the answer carries the key. `periods`: the current periods of the
 * token's spend windows (others are ignored); a window without one has not started.
 */
export function toTokenView(secrets: SecretBox, token: TokenRecord, now: number, periods: readonly TokenPeriodRecord[] = []): TokenView {
	const current = new Map<number, TokenPeriodRecord>()
	for (const period of periods) {
		if (period.tokenId !== token.id || period.endsAt <= now) continue
		// A token's periods record their window's length (billing/token-windows.ts).
		const known = current.get(period.windowIndex)
		if (!known || known.sequence < period.sequence) current.set(period.windowIndex, period)
	}
	return {
		id: token.id,
		name: token.name,
		key: readKey(secrets, token.keyCipher),
		status: effectiveStatus(token, now),
		remain_quota: token.remainQuota,
		used_quota: token.usedQuota,
		unlimited_quota: token.unlimitedQuota,
		expired_time: token.expiredTime,
		created_time: token.createdTime,
		accessed_time: token.accessedTime,
		model_limits_enabled: token.modelLimitsEnabled,
		model_limits: token.modelLimits,
		allow_ips: token.allowIps,
		group: token.group,
		concurrency_limit: token.concurrencyLimit,
		rpm_limit: token.rpmLimit,
		tpm_limit: token.tpmLimit,
		rpd_limit: token.rpdLimit,
		response_cache_enabled: token.responseCacheEnabled,
		quota_windows: readTokenWindows(token.quotaWindows).map((window) => {
			const period = current.get(window.seconds)
			return period
				? { seconds: window.seconds, quota: period.quota, used: period.used, held: period.held, remaining: period.remain, resets_at: period.endsAt }
				: { seconds: window.seconds, quota: window.quota, used: 0, held: 0, remaining: window.quota, resets_at: null }
		}),
	}
}

/** A key sealed under another CRYPTO_SECRET reads as empty, so the owner can still list and delete it. */
function readKey(secrets: SecretBox, cipher: string): string {
	try {
		return displayTokenKey(secrets.decrypt(cipher))
	} catch {
		return ''
	}
}
