/**
 * One-time codes kept as HMAC digests: email verification codes and password-reset tokens.
 * A code is good once, for one purpose and one target, until it expires; issuing a new one
 * replaces the old.
 */
import { and, eq, gt } from 'drizzle-orm'
import type { Dependencies } from '@/dependencies'
import { nowSeconds } from '@/lib/clock'

export const VERIFICATION_PURPOSE = { register: 'register', bindEmail: 'bind_email', resetPassword: 'reset_password' } as const
type VerificationPurpose = (typeof VERIFICATION_PURPOSE)[keyof typeof VERIFICATION_PURPOSE]

export async function storeCode(dependencies: Dependencies, purpose: VerificationPurpose, target: string, code: string, lifetimeSeconds: number) {
	const { verifications } = dependencies.store.tables
	const normalized = target.trim().toLowerCase()
	await dependencies.store.db.delete(verifications).where(and(eq(verifications.purpose, purpose), eq(verifications.target, normalized)))
	await dependencies.store.db.insert(verifications).values({
		purpose,
		target: normalized,
		codeHash: dependencies.secrets.digest(`${purpose}:${normalized}:${code}`),
		expiresAt: nowSeconds() + lifetimeSeconds,
	})
}

/** True once for a matching, unexpired code; the code is gone afterwards. */
export async function consumeCode(dependencies: Dependencies, purpose: VerificationPurpose, target: string, code: string): Promise<boolean> {
	const { verifications } = dependencies.store.tables
	const normalized = target.trim().toLowerCase()
	if (!normalized || !code) return false
	const deleted = await dependencies.store.db.delete(verifications).where(and(
		eq(verifications.purpose, purpose),
		eq(verifications.target, normalized),
		eq(verifications.codeHash, dependencies.secrets.digest(`${purpose}:${normalized}:${code.trim()}`)),
		gt(verifications.expiresAt, nowSeconds()),
	)).returning({ id: verifications.id })
	return deleted.length > 0
}
