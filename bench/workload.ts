/**
 * What every target is sent: chat completions for the benchmarked model with a handful of different
 * prompts, each carrying one of the seeded Ferry tokens (the upstream and the bare proxy ignore the
 * key, so all targets get byte-identical requests): round-robin over all tokens (uniform), or drawn
 * from a Zipf distribution (skewed: a few tokens carry most calls, as on a real gateway).
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

/** Zipf exponent of the skewed workload: with 10 000 tokens, the busiest 10 carry about 30% of calls, the busiest 100 about half. */
export const SKEW_EXPONENT = 1
/** How many keys the skewed sequence holds (the load generator goes round it). */
const SKEWED_SEQUENCE_LENGTH = 20_000

/**
 * A sequence of `tokens` in which token k (from 1) appears with probability ∝ 1 / k^SKEW_EXPONENT,
 * shuffled by a seeded generator so every run sends the same sequence.
 */
export function skewedTokens(tokens: string[], length = SKEWED_SEQUENCE_LENGTH): string[] {
	const cumulative = new Float64Array(tokens.length)
	let total = 0
	for (let rank = 0; rank < tokens.length; rank++) cumulative[rank] = total += 1 / (rank + 1) ** SKEW_EXPONENT
	let seed = 0x9e3779b9
	const random = () => {
		// xorshift32: small, fast and the same on every run.
		seed ^= seed << 13
		seed ^= seed >>> 17
		seed ^= seed << 5
		return (seed >>> 0) / 0x1_0000_0000
	}
	return Array.from({ length }, () => {
		const target = random() * total
		let low = 0
		let high = tokens.length - 1
		while (low < high) {
			const middle = (low + high) >>> 1
			if (cumulative[middle]! < target) low = middle + 1
			else high = middle
		}
		return tokens[low]!
	})
}
