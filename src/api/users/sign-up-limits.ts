/**
 * What every new account passes, by password or through another service
 * (docs/specification/accounts-and-settings.md#registration): the invitation an administrator may
 * require, and the number of accounts one client address may open per window.
 *
 * Addresses are counted by `addressGroup` (an IPv6 /64 counts as one) with a plain `hit`, so a
 * limiter shared through Redis counts every node's sign-ups together. The hit comes last, once the
 * sign-up has passed every other check: a mistyped form or a taken name costs no allowance.
 */
import { USER_MESSAGES } from '@shared/user'
import type { Dependencies } from '@/dependencies'
import { addressGroup } from '@/lib/client-address'
import { ApiError, refused } from '../errors'
import { findInviter } from './repository'

const SECONDS_PER_HOUR = 3600

/** With `RegisterInvitationRequired` on, refuses a sign-up without the code of a live user. */
export async function assertInvitation(dependencies: Pick<Dependencies, 'options' | 'store'>, invitationCode: string) {
	if (!dependencies.options.get('RegisterInvitationRequired')) return
	if (!invitationCode) throw refused(USER_MESSAGES.invitationRequired)
	if (!await findInviter(dependencies.store, invitationCode)) throw refused(USER_MESSAGES.invalidAffCode)
}

/** Counts a new account against its address: past `RegisterAddressLimit` in the window, 429. */
export async function enforceSignUpAddressLimit(dependencies: Pick<Dependencies, 'options' | 'rateLimiter'>, clientAddress: string) {
	const { options, rateLimiter } = dependencies
	const limit = options.get('RegisterAddressLimit')
	if (limit === 0) return
	const windowSeconds = options.get('RegisterAddressWindowHours') * SECONDS_PER_HOUR
	if (!await rateLimiter.hit(`register:address:${addressGroup(clientAddress)}`, limit, windowSeconds)) {
		throw new ApiError(USER_MESSAGES.registerAddressLimit, 429)
	}
}
