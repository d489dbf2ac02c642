import { JsonBodyError, parseJsonBody } from '@/lib/json-body'
import { relayErrors } from '../errors'
import { isObject } from '../formats/json'

/** A task call's JSON object body; anything else is the client's 400. */
export async function readTaskBody(request: Request): Promise<Record<string, unknown>> {
	let body: unknown
	try {
		body = parseJsonBody(await request.text())
	} catch (error) {
		if (error instanceof JsonBodyError) throw relayErrors.badRequest(error.message)
		throw error
	}
	if (!isObject(body)) throw relayErrors.badRequest('the request body must be a JSON object')
	return body
}
