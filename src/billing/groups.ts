/** The groups a user may use, as tokens, the playground and the pricing page see them. */
import type { UsableGroups } from '@shared/user'
import type { OptionStore } from '@/db/stores/options'
import { groupRatio } from './price'

/** Groups the user may pick for a token, with their description and the ratio billing applies to this user there. */
export function usableGroups(options: OptionStore, user: { group: string }): UsableGroups {
	const descriptions = options.get('UserUsableGroups')
	const groups: UsableGroups = {}
	for (const [group, desc] of Object.entries({ ...descriptions, [user.group]: descriptions[user.group] ?? user.group })) {
		groups[group] = { desc, ratio: groupRatio(options, user.group, group) }
	}
	return groups
}
