/**
 * Local token counting (src/billing/tokenizer.ts): linear in the text, counted in slices of
 * whole pre-tokenised pieces on a worker thread, with the counts of one gpt-tokenizer call.
 */
import { describe, expect, test } from 'bun:test'
import { countTokens } from 'gpt-tokenizer'
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { countPrompt, countText, TOKENIZER_WORKER_FROM_SOURCE } from '@/billing/tokenizer'
import { beginsPiece, LONGEST_PIECE, textSlices } from '@/billing/text-slices'

/** A small seeded generator (mulberry32): the same texts on every run. */
function seeded(seed: number) {
	return () => {
		seed = (seed + 0x6d2b79f5) | 0
		let value = Math.imul(seed ^ (seed >>> 15), 1 | seed)
		value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value
		return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296
	}
}

/** Words, scripts, digits, punctuation, whitespace and the characters the pre-tokeniser treats specially. */
const ATOMS = [
	'the', 'The', 'QUICK', 'brown', "don't", "it's", "I'LL", 'naïve', 'e\u0301', 'Straße', 'iPhone', 'HTTPServer', '__init__', 'x86_64',
	'中文', '测试句子', '，', '。', '、', '「', '」', 'こんにちは', 'カタカナ', 'สวัสดี', 'ครับ', 'مرحبا', 'привет', '😀', '👍🏽', '𝐀𝐁', '𠀀',
	'1', '12', '12345', '½', '٣', '\n', '\r\n', '\n\n', '\t', ' ', '  ', '   ', '\u00a0', '\u3000', '\u200b',
	'.', ',', '!', '?', '/', '//', '-', '--', '==', '(', ')', '{', '}', '"', "'", '`', '#', '$', '%', '*', '+', '<', '>', '|', '~',
	'https://example.com/a/b?c=1', '\u0301',
]

function texts(count: number, seed: number): string[] {
	const random = seeded(seed)
	const pick = <Item>(list: readonly Item[]) => list[Math.floor(random() * list.length)]!
	return Array.from({ length: count }, () => {
		const atoms = Array.from({ length: 1 + Math.floor(random() * 900) }, () => pick(ATOMS))
		return atoms.join(random() < 0.5 ? '' : pick([' ', '\n', '']))
	})
}

/** Longer texts of code points drawn from many scripts and blocks, with ASCII letters and spaces more likely. */
function codePointTexts(count: number, seed: number): string[] {
	const random = seeded(seed)
	const blocks: [number, number][] = [[0x20, 0x7e], [0x61, 0x7a], [0x61, 0x7a], [0x20, 0x20], [0x09, 0x0d], [0xa0, 0x17f], [0x300, 0x36f], [0x400, 0x4ff], [0xe00, 0xe7f], [0x2000, 0x206f], [0x3000, 0x30ff], [0x4e00, 0x4e80], [0x1f600, 0x1f64f], [0x1d400, 0x1d4ff], [0x27, 0x27], [0x0a, 0x0a], [0x30, 0x39]]
	return Array.from({ length: count }, () => {
		let text = ''
		for (let length = 1_000 + Math.floor(random() * 3_000); length > 0; length--) {
			const [low, high] = blocks[Math.floor(random() * blocks.length)]!
			text += String.fromCodePoint(low + Math.floor(random() * (high - low + 1)))
		}
		return text
	})
}

const PLAIN_TEXT = { disallowedSpecial: new Set<string>() }

describe('counting tokens in slices', () => {
	test('every slice of varied text begins where o200k\'s pre-tokeniser begins a piece', () => {
		for (const text of texts(150, 1)) {
			const pieceStarts = new Set([...text.matchAll(O200K_TOKEN_SPLIT_REGEX)].map((match) => match.index))
			let position = 0
			for (const slice of textSlices(text)) {
				expect(pieceStarts.has(position)).toBe(true)
				position += slice.length
			}
			expect(position).toBe(text.length)
		}
	})

	test('wherever the slicer may cut, o200k\'s pre-tokeniser makes the same pieces of the two parts as of the whole', () => {
		// Short strings of the characters the pattern treats specially, in every order a seeded draw gives.
		const characters = ['a', 'B', 'é', 's', 't', 'l', 'L', 'v', 'e', 'D', 'ǅ', 'ʰ', '1', '٣', ' ', ' ', '\t', '\n', '\r', '/', '/', '-', '!', "'", "'", '\u0301', '中', '😀', '𝐀', '\u3000', '\u00a0', '.', '"', '(', '\u200b', '\u0e7e']
		const pieces = (text: string) => [...text.matchAll(O200K_TOKEN_SPLIT_REGEX)].map((match) => match[0])
		const random = seeded(3)
		for (let round = 0; round < 20_000; round++) {
			const text = Array.from({ length: 2 + Math.floor(random() * 14) }, () => characters[Math.floor(random() * characters.length)]).join('')
			const whole = pieces(text)
			for (let index = 1; index < text.length; index++) {
				if (beginsPiece(text, index)) expect([...pieces(text.slice(0, index)), ...pieces(text.slice(index))]).toEqual(whole)
			}
		}
	})

	test('counting varied text slice by slice gives the count of one call over the whole text', async () => {
		for (const text of [...texts(100, 2), ...codePointTexts(40, 4)]) {
			const whole = countTokens(text, PLAIN_TEXT)
			expect([...textSlices(text)].reduce((sum, slice) => sum + countTokens(slice, PLAIN_TEXT), 0)).toBe(whole)
			expect(await countText(text)).toBe(whole)
		}
	})

	test('a run with nowhere to cut is cut into pieces no longer than the bound, never inside a surrogate pair', () => {
		for (const run of ['A'.repeat(5_000), '中'.repeat(5_000), '-'.repeat(5_000), ' '.repeat(5_000), '😀'.repeat(2_500)]) {
			const slices = [...textSlices(run)]
			expect(slices.join('')).toBe(run)
			for (const slice of slices) {
				expect(slice.length).toBeLessThanOrEqual(LONGEST_PIECE + 1)
				expect(slice.isWellFormed()).toBe(true)
			}
		}
	})

	test('a run of one letter or one emoji, though cut, counts as in one call', () => {
		for (const run of ['A'.repeat(4_000), '😀'.repeat(2_000)]) {
			expect([...textSlices(run)].reduce((sum, slice) => sum + countTokens(slice), 0)).toBe(countTokens(run))
		}
	})

	test('text that spells a special token is counted as plain text', async () => {
		const text = 'say <|endoftext|> and <|im_start|> aloud'
		expect(await countText(text)).toBe(countTokens(text, PLAIN_TEXT))
		expect(await countPrompt({ endpoint: 'chat', messages: [{ role: 'user', content: text }] })).toBe(countTokens(text, PLAIN_TEXT) + 6)
	})

	test('run from source, the tokenizer finds its worker without being told where it is', () => {
		// It once named a path one folder too high: every count outside main.ts ran on the main thread.
		expect(existsSync(fileURLToPath(TOKENIZER_WORKER_FROM_SOURCE))).toBe(true)
	})

	test('when the worker cannot start, the count is made on the main thread and the failure is logged', async () => {
		const script = `
			import { configureTokenizerWorker, countText } from '@/billing/tokenizer'
			const errors = []
			const logger = { error: (message) => errors.push(message), warn() {}, info() {}, debug() {} }
			configureTokenizerWorker(new URL('./no-such-worker.ts', import.meta.url), logger)
			console.log(JSON.stringify({ count: await countText('Hello, world! 你好，世界。'), errors }))
		`
		const child = Bun.spawn([process.execPath, '-e', script], { cwd: `${import.meta.dir}/../..`, stdout: 'pipe', stderr: 'pipe' })
		const output = await new Response(child.stdout).text()
		expect(await child.exited).toBe(0)
		expect(JSON.parse(output)).toEqual({ count: countTokens('Hello, world! 你好，世界。'), errors: ['the tokenizer worker failed; counting on the main thread'] })
	})
})
