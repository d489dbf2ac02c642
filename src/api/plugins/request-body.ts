/**
 * How `/api` reads a request body, whatever its content type, through the one bounded reader
 * (`src/lib/request-body.ts`): JSON (also when sent without a content type), forms and multipart
 * as text fields (never read as JSON), plain text as a string; any other type is a 415. Size,
 * nesting and field-count limits are checked before anything is built, and every refusal is a 4xx
 * in the envelope. Elysia's own parsers never run: they read form fields as JSON past any bound.
 * A body holding the NUL character anywhere is refused too (`nul-character.ts`).
 */
import { API_MESSAGES } from '@shared/api'
import type { ServerMessage } from '@shared/messages'
import { BODY_PROBLEM, type BodyProblem, readRequestBody, RequestBodyError } from '@/lib/request-body'
import { ApiError } from '../errors'
import { fieldsHoldNul, jsonHoldsNul, nulCharacterRefused, textHoldsNul } from './nul-character'

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

const REFUSALS: Record<BodyProblem, [status: ApiError['status'], message: ServerMessage]> = {
	[BODY_PROBLEM.tooLarge]: [413, API_MESSAGES.bodyTooLarge],
	[BODY_PROBLEM.tooDeep]: [400, API_MESSAGES.jsonTooDeep],
	[BODY_PROBLEM.invalidJson]: [400, API_MESSAGES.invalidJson],
	[BODY_PROBLEM.tooManyFields]: [400, API_MESSAGES.tooManyFields],
	[BODY_PROBLEM.malformedForm]: [400, API_MESSAGES.malformedForm],
	[BODY_PROBLEM.unsupportedType]: [415, API_MESSAGES.unsupportedContentType],
}

/** The `onParse` hook of `/api`. */
export function parseApiBody(maxBytes: number) {
	return async ({ request }: { request: Request }): Promise<unknown> => {
		try {
			const body = await readRequestBody(request, maxBytes)
			switch (body.type) {
				case 'empty': return undefined
				case 'json':
					if (jsonHoldsNul(body.text, body.value)) throw nulCharacterRefused()
					return withoutSerialisation(body.value)
				case 'form':
				case 'multipart':
					if (fieldsHoldNul(body.fields)) throw nulCharacterRefused()
					return withoutSerialisation(body.fields)
				case 'text':
					if (textHoldsNul(body.text)) throw nulCharacterRefused()
					return body.text
			}
		} catch (error) {
			if (!(error instanceof RequestBodyError)) throw error
			const [status, message] = REFUSALS[error.problem]
			throw new ApiError(message, status)
		}
	}
}
