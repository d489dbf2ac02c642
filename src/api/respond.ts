import type { Envelope } from '@shared/api'

/** The success envelope; every `/api` handler answers through it. */
export function ok<Data>(data?: Data, message = ''): Envelope<Data> {
	return data === undefined ? { success: true, message } : { success: true, message, data }
}

export const isSecureRequest = (request: Request) => request.url.startsWith('https:')
