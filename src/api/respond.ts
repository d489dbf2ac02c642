import type { ServerMessage } from '@shared/messages'

/**
 * Words that are not sentences but part of the protocol the peers' clients read, answered as they
 * are in every language: `success` (`POST /api/user/amount`), `bind` (an OAuth binding).
 */
export type ProtocolWord = 'success' | 'bind'

/** An `/api` answer before its message is worded in the caller's language (`plugins/localize.ts`). */
export type ApiAnswer<Data> = { success: boolean; message: ServerMessage | ProtocolWord | ''; data?: Data }

/** The success envelope; every `/api` handler answers through it. */
export function ok<Data>(data?: Data, message: ApiAnswer<Data>['message'] = ''): ApiAnswer<Data> {
	return data === undefined ? { success: true, message } : { success: true, message, data }
}

export const isSecureRequest = (request: Request) => request.url.startsWith('https:')
