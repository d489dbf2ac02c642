/**
 * When a token may be used: the rules behind the expired and exhausted states (docs/specification/tokens-and-money.md#api-tokens).
 * A token expires after its `expired_time` second, as the relay's token check counts it.
 */
import { TOKEN_NEVER_EXPIRES, TOKEN_STATUS } from '@shared/token'

type TokenLimits = { status: number; expiredTime: number; remainQuota: number; unlimitedQuota: boolean }

export const hasExpired = (token: Pick<TokenLimits, 'expiredTime'>, now: number) =>
	token.expiredTime !== TOKEN_NEVER_EXPIRES && token.expiredTime < now

export const isExhausted = (token: Pick<TokenLimits, 'remainQuota' | 'unlimitedQuota'>) =>
	!token.unlimitedQuota && token.remainQuota <= 0

/** An enabled token past its expiry or out of quota is really expired or exhausted; other states stand. */
export function effectiveStatus(token: TokenLimits, now: number): number {
	if (token.status !== TOKEN_STATUS.enabled) return token.status
	if (hasExpired(token, now)) return TOKEN_STATUS.expired
	if (isExhausted(token)) return TOKEN_STATUS.exhausted
	return TOKEN_STATUS.enabled
}
