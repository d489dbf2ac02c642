/**
 * What every target is sent: chat completions for the benchmarked model with a handful of different
 * prompts, each carrying one of the seeded Ferry tokens round-robin (the upstream and the bare proxy
 * ignore the key, so all targets get byte-identical requests).
 */
export const BENCH_MODEL = 'gpt-4o-mini'
export const CHAT_PATH = '/v1/chat/completions'
/** Text the bench upstream answers with; the Ferry probe looks for it to know the call was relayed. */
export const UPSTREAM_REPLY = 'Hello from the bench upstream, hi!'

const PROMPTS = [
	'Say hello.',
	'Write one short sentence about ferries.',
	'What is the capital of France? Answer in one word.',
	'Translate "good morning" into German.',
	'Give me a haiku about the sea.',
	'Summarise: the quick brown fox jumps over the lazy dog.',
	'List three prime numbers.',
	'Reply with the word "pong".',
]

export function requestBodies(stream: boolean): string[] {
	return PROMPTS.map((prompt) => JSON.stringify({
		model: BENCH_MODEL,
		messages: [{ role: 'system', content: 'You are a helpful assistant.' }, { role: 'user', content: prompt }],
		max_tokens: 64,
		temperature: 0.7,
		...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
	}))
}
