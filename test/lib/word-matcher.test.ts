/**
 * The sensitive-word automaton (Aho–Corasick): every occurrence of every word, overlapping or not,
 * case-insensitive, CJK alike, across the pieces of a text that arrives in parts, and thousands of
 * words in one pass.
 */
import { describe, expect, test } from 'bun:test'
import { compileWordMatcher, type WordMatcher } from '@/lib/word-matcher'

/** Every match as `word@start`, in the order found. */
function matches(matcher: WordMatcher, text: string) {
	const found: string[] = []
	matcher.scan(text, 0, (end, word) => found.push(`${matcher.words[word]}@${end - matcher.lengthOf(word)}`))
	return found
}

describe('the word matcher', () => {
	test('finds every occurrence of overlapping and nested words', () => {
		const matcher = compileWordMatcher(['he', 'she', 'his', 'hers'])
		expect(matches(matcher, 'ushers')).toEqual(['she@1', 'he@2', 'hers@2'])
		expect(matches(matcher, 'hishe')).toEqual(['his@0', 'she@2', 'he@3'])
		expect(matcher.wordsIn(['ushers', 'this'])).toEqual(['she', 'he', 'hers', 'his'])
	})

	test('matches without regard to case, in both the words and the text', () => {
		const matcher = compileWordMatcher(['Forbidden', 'ÄRGER', 'Σοφία', 'привет'])
		expect(matcher.wordsIn(['a FORBIDDEN thing', 'kein ärger', 'ΣΟΦΊΑ', 'ПРИВЕТ мир'])).toEqual(['Forbidden', 'ÄRGER', 'Σοφία', 'привет'])
		expect(matcher.wordsIn(['forbid den', 'arger'])).toEqual([])
	})

	test('finds Chinese words and mixed text, units as written', () => {
		const matcher = compileWordMatcher(['敏感词', '测试', 'ＡＢＣ'])
		expect(matches(matcher, '这是一个测试：包含敏感词吗')).toEqual(['测试@4', '敏感词@9'])
		// Full-width letters are other characters than ASCII ones; their case still folds.
		expect(matcher.wordsIn(['abc'])).toEqual([])
		expect(matcher.wordsIn(['ａｂｃ'])).toEqual(['ＡＢＣ'])
		// A word after a supplementary-plane character (two UTF-16 units) is found at its index.
		expect(matches(compileWordMatcher(['猫']), '😀猫')).toEqual(['猫@2'])
	})

	test('ignores blank lines, surrounding spaces and words repeated in another case', () => {
		const matcher = compileWordMatcher(['', '  alpha  ', 'ALPHA', '\r', 'beta\r'])
		expect(matcher.words).toEqual(['alpha', 'beta'])
		expect(compileWordMatcher(['', '   ']).words).toEqual([])
		expect(compileWordMatcher([]).wordsIn(['anything'])).toEqual([])
	})

	test('matches across the pieces of a text when the state of one scan is passed to the next', () => {
		const matcher = compileWordMatcher(['secret', 'cretin', '机密文件'])
		const pieces = ['top se', 'c', 'ret ', '机', '密文', '件 and cre', 'tin']
		const found: string[] = []
		let state = 0
		let offset = 0
		for (const piece of pieces) {
			state = matcher.scan(piece, state, (end, word) => found.push(`${matcher.words[word]}@${offset + end - matcher.lengthOf(word)}`))
			offset += piece.length
		}
		const whole = pieces.join('')
		expect(found).toEqual(matches(matcher, whole))
		expect(found).toEqual(['secret@4', '机密文件@11', 'cretin@20'])
	})

	test('says how much of the text scanned could still begin a word', () => {
		const matcher = compileWordMatcher(['secret', 'ab'])
		expect(matcher.pending(matcher.scan('top se', 0))).toBe(2)
		expect(matcher.pending(matcher.scan('top', 0))).toBe(0)
		// "ab" is complete and nothing continues it: nothing is pending.
		expect(matcher.pending(matcher.scan('xab', 0))).toBe(0)
		expect(matcher.pending(matcher.scan('secre', 0))).toBe(5)
	})

	test('scans only the given range of a text, reporting ends as indexes into the whole text', () => {
		const matcher = compileWordMatcher(['ab'])
		const found: number[] = []
		matcher.scan('ab ab ab', 0, (end) => found.push(end), 2, 6)
		expect(found).toEqual([5])
	})

	test('builds 5 000 words once and finds them in a long text in one pass, as a naive search would', () => {
		const letters = 'abcdefghijklmnopqrstuvwxyz'
		const hanzi = '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所'
		let seed = 42
		const random = () => {
			seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
			return seed / 2_147_483_648
		}
		const pick = (alphabet: string, length: number) => Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('')
		const words = Array.from({ length: 5_000 }, (_, index) => index % 2 === 0 ? pick(letters, 5 + Math.floor(random() * 6)) : pick(hanzi, 2 + Math.floor(random() * 3)))
		const text = Array.from({ length: 40_000 }, () => random() < 0.5 ? `${pick(letters, 6)} ` : pick(hanzi, 3)).join('')

		const built = performance.now()
		const matcher = compileWordMatcher(words)
		const buildMs = performance.now() - built
		const scanned = performance.now()
		const found = new Set(matcher.wordsIn([text]))
		const scanMs = performance.now() - scanned
		console.info(`5 000 words: built in ${buildMs.toFixed(1)} ms, ${text.length} characters scanned in ${scanMs.toFixed(1)} ms, ${found.size} words found`)

		const expected = new Set(matcher.words.filter((word) => text.includes(word)))
		expect(expected.size).toBeGreaterThan(100)
		expect(found).toEqual(expected)
	})
})
