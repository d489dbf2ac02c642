/**
 * Which group a call is billed and routed in: the token's group when set (one the
 * user may use), else the user's. `auto` walks `AutoGroups` and takes the first usable group that
 * serves the model. When none can take the call, whether any lists the model tells a 404 from a 503.
 */
import { AUTO_GROUP } from '@shared/user'
import type { OptionStore } from '@/db/stores/options'
import { type RelayError, relayErrors } from '../errors'
import type { RelayCaller } from '../caller'
import type { RoutingTable } from './routing-table'

function mayUse(options: OptionStore, caller: RelayCaller, group: string) {
	return group === caller.user.group || Object.hasOwn(options.get('UserUsableGroups'), group)
}

const autoCandidates = (options: OptionStore, caller: RelayCaller) => options.get('AutoGroups').filter((group) => mayUse(options, caller, group))

export function resolveGroup(options: OptionStore, caller: RelayCaller, model: string, serves: (group: string, model: string) => boolean): string {
	const requested = caller.token.group || caller.user.group
	if (requested !== AUTO_GROUP) {
		if (!mayUse(options, caller, requested)) throw relayErrors.groupNotAllowed(requested)
		return requested
	}
	const candidates = autoCandidates(options, caller)
	return candidates.find((group) => serves(group, model)) ?? candidates[0] ?? caller.user.group
}

/**
 * Why no channel of `group` takes the call: a 404 when no channel (enabled or not) of any group the
 * caller may be routed in lists the model (for `auto`, every usable group of `AutoGroups`), so the
 * model does not exist for the caller; else the 503 that says none can take it now.
 */
export function noChannelError(options: OptionStore, routing: Pick<RoutingTable, 'listsModel'>, caller: RelayCaller, group: string, model: string): RelayError {
	const requested = caller.token.group || caller.user.group
	const groups = requested === AUTO_GROUP ? [group, ...autoCandidates(options, caller)] : [group]
	return groups.some((candidate) => routing.listsModel(candidate, model)) ? relayErrors.noChannel(group, model) : relayErrors.modelUnlisted(group, model)
}
