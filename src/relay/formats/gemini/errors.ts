/** Errors in Gemini's shape, `{error: {code, message, status}}`, with Google's status names. */

const STATUS_NAMES: Record<number, string> = {
	400: 'INVALID_ARGUMENT',
	401: 'UNAUTHENTICATED',
	403: 'PERMISSION_DENIED',
	404: 'NOT_FOUND',
	409: 'ABORTED',
	429: 'RESOURCE_EXHAUSTED',
	499: 'CANCELLED',
	500: 'INTERNAL',
	501: 'UNIMPLEMENTED',
	502: 'UNAVAILABLE',
	503: 'UNAVAILABLE',
	504: 'DEADLINE_EXCEEDED',
}

export function geminiErrorBody(code: number, message: string) {
	return { error: { code, message, status: STATUS_NAMES[code] ?? (code >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION') } }
}

export function geminiErrorResponse(code: number, message: string, headers?: HeadersInit): Response {
	return Response.json(geminiErrorBody(code, message), { status: code, headers })
}

/** An OpenAI-format error answer of the pipeline, in Gemini's shape with the same status. */
export async function geminiErrorFromOpenAI(response: Response): Promise<Response> {
	let message = `error ${response.status}`
	try {
		const parsed = await response.json() as { error?: { message?: unknown } }
		if (typeof parsed.error?.message === 'string') message = parsed.error.message
	} catch {
		// Keep the generic message.
	}
	const requestId = response.headers.get('x-ferry-request-id')
	return geminiErrorResponse(response.status, message, requestId ? { 'x-ferry-request-id': requestId } : undefined)
}
