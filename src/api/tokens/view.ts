import type { TokenView } from '@shared/token'
import type { Tables } from '@/db'
import type { SecretBox } from '@/lib/crypto'
import { displayTokenKey } from '@/auth/token-keys'
import { effectiveStatus } from '@/auth/token-status'

export type TokenRecord = Tables['tokens']['$inferSelect']

/** Only for the token's owner: the answer carries the key. */
export function toTokenView(secrets: SecretBox, token: TokenRecord, now: number): TokenView {
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
