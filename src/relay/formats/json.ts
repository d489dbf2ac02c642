import { MAX_JSON_DEPTH } from '@shared/api-constants'
import { nestsDeeperThan } from '@/lib/request-body'
import { relayErrors } from '../errors'

/** A JSON object (neither an array nor null): how the converters check what clients and upstreams send. */
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * JSON text a client sent inside its body (a tool call's `arguments`), parsed. The body's own
 * nesting is bounded when it is read, but a string's content is not: text nested deeper than
 * `MAX_JSON_DEPTH` is refused with a 400 before it is parsed, as everything that walks the value
 * afterwards (`JSON.stringify` of the upstream request) recurses. Malformed text throws a SyntaxError.
 */
export function parseClientJson(text: string, field: string): unknown {
	if (nestsDeeperThan(text)) throw relayErrors.badRequest(`${field} nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`)
	return JSON.parse(text)
}

/** JSON text an upstream generated (a tool call's arguments in its answer), parsed; undefined when it is malformed or nested too deeply to pass on. */
export function parseGeneratedJson(text: string): { value: unknown } | undefined {
	if (nestsDeeperThan(text)) return undefined
	try {
		return { value: JSON.parse(text) }
	} catch {
		return undefined
	}
}
