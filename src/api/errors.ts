/**
 * `ApiError` is the one error type services throw for a failure the caller should see.
 * Status 200 means a business rule said no (`success: false`), the others are HTTP errors.
 */
import { MESSAGES } from '@shared/api'

export class ApiError extends Error {
	constructor(message: string, readonly status: 200 | 400 | 401 | 403 | 404 | 409 | 413 | 429 = 200) {
		super(message)
	}
}

export const unauthorized = () => new ApiError(MESSAGES.notLoggedIn, 401)
export const forbidden = (message: string = MESSAGES.forbidden) => new ApiError(message, 403)
export const notFound = (message: string = MESSAGES.notFound) => new ApiError(message, 404)
export const badRequest = (message: string) => new ApiError(message, 400)
export const refused = (message: string) => new ApiError(message, 200)
