import type { z } from 'zod'
import type { Dependencies } from '@/dependencies'
import type { OutboundPolicy } from '@/lib/outbound'
import { refused } from '../errors'
import { aboutProvider, OAUTH_MESSAGES } from './messages'

const TIMEOUT_MILLISECONDS = 10_000

/**
 * One request to a sign-in provider, through `dependencies.fetch`, read as JSON of the expected
 * shape. Every failure is a refusal naming the provider; nothing from the request (codes,
 * tokens, secrets) is logged.
 */
export async function fetchProviderJson<Schema extends z.ZodType>(
	dependencies: Dependencies, label: string, url: string, init: RequestInit, schema: Schema,
	policy: OutboundPolicy = 'service',
): Promise<z.infer<Schema>> {
	let response: Response
	try {
		response = await dependencies.fetch(url, { ...init, policy, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MILLISECONDS) })
	} catch (error) {
		dependencies.logger.warn('a sign-in provider could not be reached', { provider: label, reason: (error as Error).name })
		throw refused(aboutProvider(OAUTH_MESSAGES.unreachable, label))
	}
	let body: unknown
	try {
		body = await response.json()
	} catch {
		body = undefined
	}
	const parsed = schema.safeParse(body)
	if (!response.ok || !parsed.success) {
		dependencies.logger.warn('a sign-in provider gave an unexpected answer', { provider: label, status: response.status })
		throw refused(response.status >= 400 && response.status < 500 ? aboutProvider(OAUTH_MESSAGES.codeRejected, label) : aboutProvider(OAUTH_MESSAGES.unreadable, label))
	}
	return parsed.data
}
