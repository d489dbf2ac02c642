/**
 * The tokenizer's own thread (src/billing/tokenizer.ts): loading o200k and counting long
 * texts take CPU that must not hold the main thread's requests. Counts one message at a time:
 * texts, or a client's whole request (bytes and the name of its format), which it decodes, parses
 * and reads the prompt of here (src/relay/formats/counted-prompts.ts).
 *
 * Messages in: `{ id, texts }` or `{ id, request: { format, bytes } }`. Messages out: `{ id, count }`
 * (a request's with `media`, the part of it its media parts make, and the `model` it names),
 * `{ id, refusal }` when the request is the client's error, or `{ id, error }` when counting failed.
 */
import { countInSlices, loadSliceCounter } from '@/billing/slice-count'
import { textsOfPrompt, type TokenizerReply, type TokenizerRequest } from '@/billing/tokenizer'
import { decodeText, parseJsonText } from '@/lib/request-body'
import { asRelayError, RelayError } from '@/relay/errors'
import { countedPrompt, isCountedFormat } from '@/relay/formats/counted-prompts'

const modelOf = (value: unknown) => {
	const model = typeof value === 'object' && value !== null ? (value as { model?: unknown }).model : undefined
	return typeof model === 'string' ? model : undefined
}

// The DOM typings see `self` as a window; in a Bun worker it is the worker's own scope.
const scope = self as unknown as Worker
const counter = loadSliceCounter()

async function countMessage(message: TokenizerRequest): Promise<TokenizerReply> {
	const { id } = message
	if ('texts' in message) return { id, count: await countInSlices(message.texts, await counter) }
	const { format, bytes } = message.request
	if (!isCountedFormat(format)) return { id, error: `no prompt reader for ${format}` }
	try {
		const value = parseJsonText(decodeText(bytes))
		const { texts, fixed, media } = textsOfPrompt(countedPrompt(format, value))
		return { id, count: fixed + await countInSlices(texts, await counter), media, model: modelOf(value) }
	} catch (error) {
		const refusal = asRelayError(error)
		if (!(refusal instanceof RelayError)) throw error
		return { id, refusal: { status: refusal.status, message: refusal.message, type: refusal.type, code: refusal.code } }
	}
}

scope.onmessage = async (event: MessageEvent<TokenizerRequest>) => {
	let reply: TokenizerReply
	try {
		reply = await countMessage(event.data)
	} catch (error) {
		reply = { id: event.data.id, error: String(error) }
	}
	scope.postMessage(reply)
}
