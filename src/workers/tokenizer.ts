/**
 * The tokenizer's own thread (src/billing/tokenizer.ts): loading o200k and counting long
 * texts take CPU that must not hold the main thread's requests. Counts one message at a time.
 *
 * Messages in: `{ id, texts }`. Messages out: `{ id, count }`, or `{ id, error }` when counting failed.
 */
import { countInSlices, loadSliceCounter } from '@/billing/slice-count'
import type { TokenizerReply, TokenizerRequest } from '@/billing/tokenizer'

// The DOM typings see `self` as a window; in a Bun worker it is the worker's own scope.
const scope = self as unknown as Worker
const counter = loadSliceCounter()

scope.onmessage = async (event: MessageEvent<TokenizerRequest>) => {
	const { id, texts } = event.data
	let reply: TokenizerReply
	try {
		reply = { id, count: await countInSlices(texts, await counter) }
	} catch (error) {
		reply = { id, error: String(error) }
	}
	scope.postMessage(reply)
}
