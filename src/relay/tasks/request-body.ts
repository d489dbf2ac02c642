import { relayErrors } from '../errors'
import { isObject } from '../formats/json'
import { type BodyGate, readJsonCall } from '../edge/read-body'

/** A task call's JSON object body; anything else is the client's 400. */
export async function readTaskBody(request: Request, gate: BodyGate): Promise<Record<string, unknown>> {
	const { value: body } = await readJsonCall(request, gate)
	if (!isObject(body)) throw relayErrors.badRequest('the request body must be a JSON object')
	return body
}
