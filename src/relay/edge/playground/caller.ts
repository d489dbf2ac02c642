/**
 * Who calls the playground: the console's session user, never a token.
 * The call runs as a token that exists only for this request, `playground-<group>`, with id 0:
 * the ledger then charges the user's wallet alone and no token row is touched.
 */
import { USER_STATUS } from '@shared/user'
import type { Dependencies } from '@/dependencies'
import { sessionUser } from '@/auth/session-user'
import { usableGroups } from '@/billing/groups'
import { RELAY_MESSAGES } from '@shared/messages/relay'
import { relayErrors, wordedRelayError } from '../../errors'
import { callLimitsOf, NO_CALL_LIMITS, type RelayCaller } from '../../caller'

const PLAYGROUND_TOKEN_PREFIX = 'playground-'

const playgroundErrors = {
	accessTokenRefused: () => wordedRelayError(401, RELAY_MESSAGES.accessTokenRefused, 'invalid_request_error', 'access_token_refused'),
	notSignedIn: () => wordedRelayError(401, RELAY_MESSAGES.notSignedIn, 'invalid_request_error', 'not_signed_in'),
	userHeaderMismatch: () => wordedRelayError(401, RELAY_MESSAGES.userHeaderMismatch, 'invalid_request_error', 'user_header_mismatch'),
	userDisabled: () => wordedRelayError(403, RELAY_MESSAGES.playgroundUserDisabled, 'invalid_request_error', 'user_disabled'),
	groupInvalid: () => wordedRelayError(400, RELAY_MESSAGES.groupInvalid, 'invalid_request_error', 'invalid_request'),
}

/** The session's user, checked like the console's API checks it (header included); tokens are refused. */
export async function playgroundUser(dependencies: Dependencies, headers: Headers) {
	if (headers.get('authorization')) throw playgroundErrors.accessTokenRefused()
	const user = await sessionUser(dependencies, headers)
	if (!user) throw playgroundErrors.notSignedIn()
	if (headers.get('new-api-user') !== String(user.id)) throw playgroundErrors.userHeaderMismatch()
	if (user.status !== USER_STATUS.enabled) throw playgroundErrors.userDisabled()
	// An active plan with a group puts its subscriber in that group.
	const planGroup = dependencies.subscriptions.groupOf(user.id)
	return planGroup ? { ...user, group: planGroup } : user
}

type PlaygroundUser = Awaited<ReturnType<typeof playgroundUser>>

/** The requested group when the user may use it, the user's own when none is requested. */
export function playgroundGroup(dependencies: Dependencies, user: PlaygroundUser, requested: unknown): string {
	if (requested === undefined || requested === null || requested === '') return user.group
	if (typeof requested !== 'string') throw playgroundErrors.groupInvalid()
	if (!Object.hasOwn(usableGroups(dependencies.options, user), requested)) throw relayErrors.groupNotAllowed(requested)
	return requested
}

export function playgroundCaller(user: PlaygroundUser, group: string): RelayCaller {
	return {
		user: { id: user.id, username: user.username, group: user.group, role: user.role, limits: callLimitsOf({ rpm_limit: user.rpmLimit, tpm_limit: user.tpmLimit, rpd_limit: user.rpdLimit, concurrency_limit: user.concurrencyLimit }) },
		token: { id: 0, name: `${PLAYGROUND_TOKEN_PREFIX}${group}`, group, unlimited: true, modelLimits: undefined, limits: NO_CALL_LIMITS, responseCache: true },
		pinnedChannelId: undefined,
	}
}
