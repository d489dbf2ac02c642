/**
 * The admin audit trail (issue 17): what an admin or the super admin changed, logged as type 3
 * ("admin", docs/specification/logs-and-dashboard.md#log-lines) with `other.admin_action = { action, target, ...details }`. Zod-free: the
 * log page reads it to show each action in the console's language.
 */
export const ADMIN_ACTIONS = [
	'channel.create', 'channel.update', 'channel.delete', 'channel.delete_batch', 'channel.delete_disabled',
	'channel.tag_set', 'channel.tag_edit', 'channel.tag_enable', 'channel.tag_disable', 'channel.fix',
	'user.create', 'user.update', 'user.quota', 'user.promote', 'user.demote', 'user.enable', 'user.disable', 'user.delete', 'user.unbind',
	'option.update', 'option.reset_model_ratio',
	'redemption.create', 'redemption.update', 'redemption.status', 'redemption.delete',
	'log.cleanup',
	'plan.create', 'plan.update', 'plan.delete', 'subscription.reset',
] as const
export type AdminActionName = (typeof ADMIN_ACTIONS)[number]

/** Details are short values only: names, ids, counts, field names. Never a secret's value. */
export type AdminActionDetails = Record<string, string | number | boolean>

/** What `other.admin_action` of a type-3 log line holds. */
export type AdminActionRecord = { action: AdminActionName; target: string } & AdminActionDetails

/** An option's new value is logged up to this many characters (secret options never). */
export const ADMIN_ACTION_VALUE_LIMIT = 200
