/**
 * Which group a call is billed and routed in: the token's group when set (one the
 * user may use), else the user's. `auto` walks `AutoGroups` and takes the first usable group that
 * serves the model.
 */
import { AUTO_GROUP } from '@shared/user'
import type { OptionStore } from '@/db/stores/options'
import { relayErrors } from '../errors'
import type { RelayCaller } from '../caller'

function mayUse(options: OptionStore, caller: RelayCaller, group: string) {
	return group === caller.user.group || Object.hasOwn(options.get('UserUsableGroups'), group)
}

export function resolveGroup(options: OptionStore, caller: RelayCaller, model: string, serves: (group: string, model: string) => boolean): string {
	const requested = caller.token.group || caller.user.group
	if (requested !== AUTO_GROUP) {
		if (!mayUse(options, caller, requested)) throw relayErrors.groupNotAllowed(requested)
		return requested
	}
	const candidates = options.get('AutoGroups').filter((group) => mayUse(options, caller, group))
	return candidates.find((group) => serves(group, model)) ?? candidates[0] ?? caller.user.group
}
