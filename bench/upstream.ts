/**
 * The bench's upstream: a minimal OpenAI-shaped chat completions server with answers built once,
 * so that it costs as little as possible and every target is measured against the same thing.
 * A stream writes each SSE event separately (flushed), like a model emitting tokens; the usage
 * chunk is sent only when the request asks for it. Prints `port <number>` when listening.
 * (test/helpers/fake-openai.ts is the full-featured fake; it records requests and is slower.)
 */
const encoder = new TextEncoder()
const usage = { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20, prompt_tokens_details: { cached_tokens: 0 } }
const words = ['Hello', ' from', ' the', ' bench', ' upstream', ',', ' hi', '!']
const base = { id: 'chatcmpl-bench', created: 1_700_000_000, model: 'gpt-4o-mini', system_fingerprint: 'fp_bench' }

const whole = JSON.stringify({
	...base,
	object: 'chat.completion',
	choices: [{ index: 0, message: { role: 'assistant', content: words.join('') }, logprobs: null, finish_reason: 'stop' }],
	usage,
})

function streamEvents(includeUsage: boolean) {
	const chunk = (delta: unknown, finish: string | null = null) => ({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })
	const events: unknown[] = [chunk({ role: 'assistant', content: '' }), ...words.map((word) => chunk({ content: word })), chunk({}, 'stop')]
	if (includeUsage) events.push({ ...base, object: 'chat.completion.chunk', choices: [], usage })
	return [...events.map((event) => `data: ${JSON.stringify(event)}\n\n`), 'data: [DONE]\n\n'].map((line) => encoder.encode(line))
}
const withUsage = streamEvents(true)
const withoutUsage = streamEvents(false)
const tokenDelayMs = Number(process.env.BENCH_TOKEN_DELAY_MS ?? 0)

/** Bun's direct stream: each write is flushed as its own chunk. (With the DOM lib loaded, TypeScript only sees the standard constructor.) */
const directStream = (source: Bun.DirectUnderlyingSource<Uint8Array>) => new ReadableStream(source as unknown as UnderlyingDefaultSource<Uint8Array>)

const server = Bun.serve({
	hostname: '127.0.0.1',
	port: 0,
	async fetch(request) {
		if (request.method !== 'POST' || !new URL(request.url).pathname.endsWith('/chat/completions')) {
			return Response.json({ error: { message: 'not found', type: 'invalid_request_error', param: null, code: null } }, { status: 404 })
		}
		const body = await request.json() as { stream?: boolean; stream_options?: { include_usage?: boolean } }
		if (!body.stream) return new Response(whole, { headers: { 'content-type': 'application/json' } })
		const lines = body.stream_options?.include_usage ? withUsage : withoutUsage
		return new Response(directStream({
			type: 'direct',
			async pull(controller) {
				for (const line of lines) {
					if (tokenDelayMs > 0) await Bun.sleep(tokenDelayMs)
					controller.write(line)
					await controller.flush()
				}
				controller.close()
			},
		}), { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } })
	},
})
console.log(`port ${server.port}`)

export {}
