/**
 * Counting texts with o200k slice by slice (`text-slices.ts`): linear in the text, with the same
 * count as one call over the whole text. The tokenizer worker (src/workers/tokenizer.ts) runs it;
 * so does the main thread when the worker cannot, then letting other work run between slices.
 */
import { textSlices } from './text-slices'

export type SliceCounter = (slice: string) => number

/**
 * Text that spells a special token (`<|endoftext|>`) is counted as the plain text it is: a client's
 * prompt cannot contain the token itself, and gpt-tokenizer would otherwise throw on it.
 */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() }

/** gpt-tokenizer's o200k, loaded on first use: its tables cost about 70 MB and half a second of CPU to load. */
export async function loadSliceCounter(): Promise<SliceCounter> {
	const { countTokens } = await import('gpt-tokenizer')
	return (slice) => countTokens(slice, PLAIN_TEXT)
}

/** The tokens of every text, summed; `betweenSlices` may pause the count (to share a thread). */
export async function countInSlices(texts: readonly string[], count: SliceCounter, betweenSlices?: () => Promise<void> | undefined): Promise<number> {
	let total = 0
	for (const text of texts) {
		for (const slice of textSlices(text)) {
			total += count(slice)
			const pause = betweenSlices?.()
			if (pause) await pause
		}
	}
	return total
}
