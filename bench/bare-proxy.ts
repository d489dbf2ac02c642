/**
 * The floor: the least a Bun relay can do. It forwards the request body to the upstream with
 * `fetch` and returns the upstream body as a stream, untouched. Usage: bun bench/bare-proxy.ts <upstream url>.
 * Prints `port <number>` when listening.
 */
const upstream = process.argv[2]!

const server = Bun.serve({
	hostname: '127.0.0.1',
	port: 0,
	async fetch(request) {
		const answer = await fetch(upstream + new URL(request.url).pathname, {
			method: request.method,
			headers: { 'content-type': 'application/json', authorization: 'Bearer sk-upstream' },
			body: await request.arrayBuffer(),
		})
		return new Response(answer.body, { status: answer.status, headers: { 'content-type': answer.headers.get('content-type') ?? 'application/json' } })
	},
})
console.log(`port ${server.port}`)

export {}
