/**
 * How `/api` reads a JSON body (sent as `application/json`, or with no content type at all):
 * nesting bounded by `MAX_JSON_DEPTH`, bad JSON a 400 in the envelope. Other content types are
 * left to Elysia's own parsers.
 */
import { API_MESSAGES, MESSAGES } from '@shared/api'
import { JsonBodyError, parseJsonBody } from '@/lib/json-body'
import { badRequest } from '../errors'

const JSON_CONTENT_TYPE = 'application/json'

/**
 * Elysia's validation error builds its message by serialising the whole body with two-space
 * indentation, which `envelopeErrors` never shows: a body 60 levels deep, within the depth bound,
 * grows a hundredfold and took seconds. So the parsed body serialises as a placeholder, through a
 * `toJSON` on its prototype (an own one, even hidden, still has Bun walk the whole value). Validation
 * never sees it: zod reads own keys and elements, and builds new objects and arrays for handlers.
 */
const placeholder = { value: () => '[request body]' }
const OBJECT_BODY: object = Object.create(Object.prototype, { toJSON: placeholder })
const ARRAY_BODY: object = Object.create(Array.prototype, { toJSON: placeholder })

function withoutSerialisation(value: unknown): unknown {
	if (Array.isArray(value)) Object.setPrototypeOf(value, ARRAY_BODY)
	else if (typeof value === 'object' && value !== null) Object.setPrototypeOf(value, OBJECT_BODY)
	return value
}

/** The `onParse` hook of `/api`; it answers undefined to let Elysia parse other content types. */
export async function parseApiJson({ request, contentType }: { request: Request; contentType: string }): Promise<unknown> {
	if (contentType && contentType.trim().toLowerCase() !== JSON_CONTENT_TYPE) return undefined
	const text = await request.text()
	if (!text.trim()) {
		if (contentType) throw badRequest(API_MESSAGES.invalidJson)
		return undefined
	}
	try {
		return withoutSerialisation(parseJsonBody(text))
	} catch (error) {
		// The reader words its errors in English for the relay; here they are catalogue messages.
		if (error instanceof JsonBodyError) throw badRequest(error.message === MESSAGES.jsonTooDeep ? API_MESSAGES.jsonTooDeep : API_MESSAGES.invalidJson)
		throw error
	}
}
