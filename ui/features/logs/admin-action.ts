/**
 * How an admin audit line (type 3 with `other.admin_action`, issue 17) reads in the console: one zh
 * template per action (the server's catalogue, `@shared/messages/admin-actions`), filled with the
 * line's target and details; `t()` gives the English.
 */
import { ADMIN_ACTIONS, type AdminActionName } from '@shared/admin-action-constants'
import { ADMIN_ACTION_ENTRIES } from '@shared/messages/admin-actions'

export const ADMIN_ACTION_TEMPLATES = Object.fromEntries(ADMIN_ACTIONS.map((action) => [action, ADMIN_ACTION_ENTRIES[action][0]])) as Record<AdminActionName, string>

/** A secret option's line carries no value. */
export const SECRET_OPTION_TEMPLATE = ADMIN_ACTION_ENTRIES['option.update_secret'][0]

/** The line's template and values, or undefined when it is not an admin action Ferry knows. */
export function adminActionText(other: Record<string, unknown>, formatTime: (seconds: number) => string): { template: string; values: Record<string, string | number> } | undefined {
	const record = other.admin_action
	if (typeof record !== 'object' || record === null) return undefined
	const { action, ...rest } = record as Record<string, unknown>
	if (typeof action !== 'string' || !Object.hasOwn(ADMIN_ACTION_TEMPLATES, action)) return undefined
	const values: Record<string, string | number> = {}
	for (const [key, value] of Object.entries(rest)) {
		if (typeof value === 'string' || typeof value === 'number') values[key] = value
		else if (typeof value === 'boolean') values[key] = String(value)
	}
	if (typeof values.before === 'number') values.before = formatTime(values.before)
	if (action === 'option.update' && rest.secret === true) return { template: SECRET_OPTION_TEMPLATE, values }
	return { template: ADMIN_ACTION_TEMPLATES[action as AdminActionName], values }
}
