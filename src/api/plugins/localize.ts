/**
 * Words the message of every `/api` answer in the caller's language (issue 16): handlers answer
 * `{ success, message, data }` with a catalogue message (`ok(data, message)`, a channel test's
 * outcome); this hook renders it before the answer is serialised. Errors are worded by the
 * envelope plugin. Protocol words (`success`, `bind`) and empty messages pass unchanged.
 */
import { isCatalogueText, isLocalizedMessage, renderMessage } from '@shared/messages'
import { requestLanguage } from '../language'

type Answer = { success: boolean; message: unknown }

const isAnswer = (value: unknown): value is Answer =>
	typeof value === 'object' && value !== null && !(value instanceof Response) && typeof (value as Answer).success === 'boolean' && 'message' in value

/** The `onAfterHandle` hook of `/api`. */
export function localizeAnswer({ request, responseValue }: { request: Request; responseValue: unknown }) {
	if (!isAnswer(responseValue)) return undefined
	const { message } = responseValue
	if (!isLocalizedMessage(message) && !(typeof message === 'string' && isCatalogueText(message))) return undefined
	return { ...responseValue, message: renderMessage(requestLanguage(request), message) }
}
