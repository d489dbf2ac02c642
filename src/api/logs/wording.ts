/**
 * A log line's content in the reader's language (issue 16). Lines Ferry writes itself carry how to
 * word them again in `other`: an admin action (`admin_action`, issue 17) or a coded line
 * (`log_line`, `@shared/messages/logs`). Other lines (relayed calls, lines written before the
 * codes, imported ones) keep their stored content.
 */
import { ADMIN_ACTION_ENTRIES } from '@shared/messages/admin-actions'
import { isLogLineCode, LOG_LINE_ENTRIES } from '@shared/messages/logs'
import { type Language, renderMessage } from '@shared/messages'

type Values = Record<string, string | number>

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The scalar fields of a stored record; other shapes are left out. */
function scalars(record: Record<string, unknown>): Values {
	const values: Values = {}
	for (const [key, value] of Object.entries(record)) {
		if (typeof value === 'string' || typeof value === 'number') values[key] = value
		else if (typeof value === 'boolean') values[key] = String(value)
	}
	return values
}

/** `2025-01-31 08:00:00 UTC`: the log cleanup's cut-off, the same in every language. */
const utcTime = (seconds: number) => `${new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC`

function adminActionText(language: Language, record: Record<string, unknown>): string | undefined {
	const { action, ...details } = record
	if (typeof action !== 'string' || !Object.hasOwn(ADMIN_ACTION_ENTRIES, action) || action === 'option.update_secret') return undefined
	const values = scalars(details)
	if (typeof values.before === 'number') values.before = utcTime(values.before)
	const entry = action === 'option.update' && details.secret === true ? ADMIN_ACTION_ENTRIES['option.update_secret'] : ADMIN_ACTION_ENTRIES[action as keyof typeof ADMIN_ACTION_ENTRIES]
	return renderMessage(language, { text: entry[0], values })
}

export function wordedContent(language: Language, content: string, other: Record<string, unknown>): string {
	if (isObject(other.admin_action)) return adminActionText(language, other.admin_action) ?? content
	const line = other.log_line
	if (isObject(line) && isLogLineCode(line.code) && isObject(line.values)) {
		return renderMessage(language, { text: LOG_LINE_ENTRIES[line.code][0], values: scalars(line.values) })
	}
	return content
}
