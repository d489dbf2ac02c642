/**
 * Reading a client's JSON request body with its nesting bounded, for the management API and the
 * relay alike. A body nested thousands of levels deep parses in a millisecond, but everything that
 * walks it afterwards (validation, error messages, converters, `JSON.stringify`) recurses, and
 * Elysia's validation error serialised it with indentation, in time quadratic in the depth: 80 KB of
 * `[[[…]]]` held the whole server for seconds and ended in a stack overflow.
 */
import { MAX_JSON_DEPTH, MESSAGES } from '@shared/api'

/** Why a body could not be read, in a message fit for the client; each caller answers it in its own format. */
export class JsonBodyError extends Error {}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d

/**
 * Whether JSON text opens more than `limit` arrays or objects inside one another. One pass over
 * the text, skipping string contents (and the character after each backslash in them); it stops
 * at the first level too deep. Text that is not JSON gets an answer too, and `JSON.parse` refuses it.
 */
export function nestsDeeperThan(text: string, limit: number = MAX_JSON_DEPTH): boolean {
	let depth = 0
	let inString = false
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index)
		if (inString) {
			if (code === BACKSLASH) index++
			else if (code === QUOTE) inString = false
		} else if (code === QUOTE) {
			inString = true
		} else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
			if (++depth > limit) return true
		} else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
			depth--
		}
	}
	return false
}

/** JSON text as a value, refused with a `JsonBodyError` when it is malformed or nested too deeply. */
export function parseJsonBody(text: string): unknown {
	if (nestsDeeperThan(text)) throw new JsonBodyError(MESSAGES.jsonTooDeep)
	try {
		return JSON.parse(text)
	} catch {
		throw new JsonBodyError(MESSAGES.invalidJson)
	}
}
