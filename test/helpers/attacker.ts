/**
 * A Bun worker that sends an attack from a thread of its own: for bodies so large that merely
 * sending them would busy the thread the Ferry under test runs on (a real attacker's machine pays
 * that cost, not Ferry). Used through `attackFromWorker`.
 *
 * Message in: `{ url, method, headers, body, copies }` (the body as bytes, sent `copies` times at
 * once). Message out: each answer's status and text.
 */
export type AttackRequest = { url: string; method: string; headers: Record<string, string>; body: Uint8Array<ArrayBuffer>; copies: number }
export type AttackReply = { status: number; text: string }[]

// The DOM typings see `self` as a window; in a Bun worker it is the worker's own scope.
const scope = self as unknown as Worker

scope.onmessage = async (event: MessageEvent<AttackRequest>) => {
	const { url, method, headers, body, copies } = event.data
	const answers = await Promise.all(Array.from({ length: copies }, async () => {
		const response = await fetch(url, { method, headers, body })
		return { status: response.status, text: await response.text() }
	}))
	scope.postMessage(answers satisfies AttackReply)
}
