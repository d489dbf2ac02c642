/**
 * `ApiError` is the one error type services throw for a failure the caller should see.
 * Status 200 means a business rule said no (`success: false`), the others are HTTP errors.
 * Its message is a catalogue message (`@shared/messages`): the envelope words it in the caller's
 * language; `Error.message` holds the English, for operators' logs.
 */
import { API_MESSAGES } from '@shared/api'
import { inEnglish, type ServerMessage } from '@shared/messages'

export class ApiError extends Error {
	constructor(readonly reason: ServerMessage, readonly status: 200 | 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 = 200) {
		super(inEnglish(reason))
	}
}

export const unauthorized = () => new ApiError(API_MESSAGES.notLoggedIn, 401)
export const forbidden = (reason: ServerMessage = API_MESSAGES.forbidden) => new ApiError(reason, 403)
export const notFound = (reason: ServerMessage = API_MESSAGES.notFound) => new ApiError(reason, 404)
export const badRequest = (reason: ServerMessage) => new ApiError(reason, 400)
export const refused = (reason: ServerMessage) => new ApiError(reason, 200)
export const tooManyRequests = () => new ApiError(API_MESSAGES.tooManyRequests, 429)
