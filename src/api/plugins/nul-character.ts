/**
 * The NUL character (U+0000) in a request to `/api`: refused, never stored. Postgres' `text` cannot
 * hold it (the statement fails) while SQLite keeps it, and no name, setting or search the console
 * sends contains one, so the caller gets a 400 saying so instead of a failed statement.
 */
import { API_MESSAGES } from '@shared/api'
import type { FormFields } from '@/lib/request-body'
import { badRequest } from '../errors'

export const nulCharacterRefused = () => badRequest(API_MESSAGES.nulCharacter)

export const textHoldsNul = (text: string) => text.includes('\u0000')

/** Whether a parsed JSON value holds NUL in any string or key (its nesting is already bounded). */
function holdsNul(value: unknown): boolean {
	if (typeof value === 'string') return textHoldsNul(value)
	if (Array.isArray(value)) return value.some(holdsNul)
	if (typeof value === 'object' && value !== null) return Object.entries(value).some(([key, item]) => textHoldsNul(key) || holdsNul(item))
	return false
}

/**
 * Whether JSON text decodes to anything holding NUL. JSON writes NUL only as the escape `\u0000`
 * (a raw control character is not JSON), so text without that sequence is settled without a walk.
 */
export function jsonHoldsNul(text: string, value: unknown): boolean {
	return text.includes('\\u0000') && holdsNul(value)
}

export function fieldsHoldNul(fields: FormFields): boolean {
	return Object.entries(fields).some(([name, value]) => textHoldsNul(name) || (Array.isArray(value) ? value.some(textHoldsNul) : textHoldsNul(value)))
}

/**
 * The `onBeforeHandle` hook of `/api`: an address whose path or query holds an encoded NUL (`%00`)
 * is refused before the handler reads a parameter from it. It runs after authentication, so an
 * anonymous caller of a signed-in route still learns nothing but 401.
 */
export function refuseNulInAddress({ request }: { request: Request }) {
	if (request.url.includes('%00')) throw nulCharacterRefused()
}
