/**
 * Cloudflare Turnstile: when the check is on, sign-in and registration need `?turnstile=<token>`
 * that Cloudflare's siteverify accepts.
 */
import type { Dependencies } from '@/dependencies'
import { TURNSTILE_MESSAGES } from '@shared/messages/verification'
import { refused } from '../errors'

export { TURNSTILE_MESSAGES }

export const TURNSTILE_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify'

export async function verifyTurnstile(dependencies: Dependencies, token: string | undefined, remoteAddress: string) {
	if (!dependencies.options.get('TurnstileCheckEnabled')) return
	if (!token) throw refused(TURNSTILE_MESSAGES.missing)
	const form = new URLSearchParams({ secret: dependencies.options.get('TurnstileSecretKey'), response: token })
	if (remoteAddress !== 'local') form.set('remoteip', remoteAddress)
	try {
		const response = await dependencies.fetch(TURNSTILE_VERIFY_URL, { method: 'POST', body: form, policy: 'service', signal: AbortSignal.timeout(10_000) })
		const answer = await response.json() as { success?: boolean }
		if (answer.success === true) return
	} catch (error) {
		dependencies.logger.warn('Turnstile verification request failed', { reason: String(error) })
	}
	throw refused(TURNSTILE_MESSAGES.failed)
}
