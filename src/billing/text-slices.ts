/**
 * Cutting text into short slices for the tokenizer, where its pre-tokeniser cuts anyway.
 *
 * o200k's byte-pair encoding takes time quadratic in the length of one pre-tokenised piece (a run
 * of letters, of punctuation, of spaces…): `"A"` × 200 000 is one piece and took a minute. Counting
 * slice by slice bounds the work per call, and cutting only where the pre-tokeniser's pattern
 * (gpt-tokenizer's `O200K_TOKEN_SPLIT_PATTERN`) must begin a piece keeps every count identical to
 * counting the whole text. A text with no such place for `LONGEST_PIECE` characters is no ordinary
 * text: it is cut there anyway, and its count may differ by a token at each such cut.
 *
 * A piece always begins at (each case checked against the pattern by test/relay/tokenizer.test.ts):
 * - whitespace, a line break or punctuation that follows a letter or digit (not an apostrophe,
 *   which may begin a contraction, nor a combining mark, which belongs to the word);
 * - a letter or digit that follows a line break;
 * - a digit that follows anything but a digit, or a letter that follows a digit;
 * - whitespace other than a line break that comes before a letter (the space begins the word's piece);
 * - punctuation before a letter, after a letter, a digit, a line break (unless it is a slash, which
 *   punctuation before the line break takes along) or whitespace other than a plain space
 *   (`a.b`, `x/y`, `文，字`, `\t(x`); not the apostrophe of contractions, nor combining marks,
 *   which belong to the word;
 * - a letter after two punctuation marks (the first not a slash) or after a plain space and one
 *   (`--flag`, ` "word`): those form a piece of their own.
 * Each slice must also make the same pieces alone as in the whole text: it never ends in two
 * spaces before something else (see `beginsPiece`).
 */

/** Pieces longer than this are cut: the encoding of a piece this long takes well under a millisecond. */
export const LONGEST_PIECE = 128
/** The most text counted in one synchronous call. */
const SLICE_LENGTH = 512

const LETTER = 1
const NUMBER = 2
/** Whitespace other than `\r` and `\n`. */
const SPACE = 4
const LINE_BREAK = 8
/** Neither letter, number, whitespace, combining mark, apostrophe nor half of a surrogate pair. */
const SYMBOL = 16
/** U+0020, the only whitespace that punctuation takes into its piece. */
const PLAIN_SPACE = 32
/** `/`, which punctuation takes into its piece after line breaks. */
const SLASH = 64
const CLASSIFIED = 128

const APOSTROPHE = 0x27
const FIRST_SURROGATE = 0xd800
const LAST_SURROGATE = 0xdfff
const FIRST_LOW_SURROGATE = 0xdc00

const LETTER_PATTERN = /\p{L}/u
const NUMBER_PATTERN = /\p{N}/u
const MARK_PATTERN = /\p{M}/u
const SPACE_PATTERN = /\s/u

/** Classes of UTF-16 code units, filled on first sight (64 KB). Halves of surrogate pairs are none of them. */
const classes = new Uint8Array(0x10000)

function classify(code: number): number {
	if (code >= FIRST_SURROGATE && code <= LAST_SURROGATE) return CLASSIFIED
	const character = String.fromCharCode(code)
	if (code === 0x0a || code === 0x0d) return CLASSIFIED | LINE_BREAK
	if (LETTER_PATTERN.test(character)) return CLASSIFIED | LETTER
	if (NUMBER_PATTERN.test(character)) return CLASSIFIED | NUMBER
	if (code === 0x20) return CLASSIFIED | SPACE | PLAIN_SPACE
	if (code === 0x2f) return CLASSIFIED | SYMBOL | SLASH
	if (SPACE_PATTERN.test(character)) return CLASSIFIED | SPACE
	if (code === APOSTROPHE || MARK_PATTERN.test(character)) return CLASSIFIED
	return CLASSIFIED | SYMBOL
}

function classAt(text: string, index: number): number {
	const code = text.charCodeAt(index)
	const known = classes[code]!
	return known !== 0 ? known : (classes[code] = classify(code))
}

/** Whether the pre-tokeniser must begin a piece at `index` (0 < index < text.length). */
export function beginsPiece(text: string, index: number): boolean {
	const before = classAt(text, index - 1)
	const at = classAt(text, index)
	// Spaces that end a slice would make one piece, where in the whole text the last one before
	// something else is a piece of its own: never cut right after two of them.
	if (before & SPACE && index >= 2 && classAt(text, index - 2) & SPACE && !(at & SPACE)) return false
	if (at & NUMBER) return !(before & NUMBER)
	if (at & LETTER) {
		if (before & (NUMBER | LINE_BREAK)) return true
		if (!(before & SYMBOL) || index < 2) return false
		// Two marks make a piece of their own, unless the first is a slash, which the piece before may have taken.
		const beforeThat = classAt(text, index - 2)
		return (beforeThat & (SYMBOL | PLAIN_SPACE)) !== 0 && !(beforeThat & SLASH)
	}
	if (before & (LETTER | NUMBER) && at & (SPACE | SYMBOL | LINE_BREAK)) return true
	if (!(at & (SPACE | SYMBOL)) || index + 1 >= text.length || !(classAt(text, index + 1) & LETTER)) return false
	if (at & SPACE) return true
	if (before & LINE_BREAK) return !(at & SLASH)
	return (before & (LETTER | NUMBER)) !== 0 || (before & (SPACE | PLAIN_SPACE)) === SPACE
}

/** A forced cut at `index`, moved past the second half of a surrogate pair. */
function forcedCut(text: string, index: number) {
	const code = text.charCodeAt(index)
	return code >= FIRST_LOW_SURROGATE && code <= LAST_SURROGATE ? index + 1 : index
}

/** The text in slices of at most `SLICE_LENGTH` characters (one more at a forced cut), each made of whole pieces. */
export function* textSlices(text: string): Generator<string> {
	let start = 0
	while (start < text.length) {
		const limit = Math.min(start + SLICE_LENGTH, text.length)
		let end = limit
		let lastBeginning = start
		for (let index = start + 1; index < limit; index++) {
			if (beginsPiece(text, index)) lastBeginning = index
			else if (index - lastBeginning >= LONGEST_PIECE) {
				end = forcedCut(text, index)
				break
			}
		}
		// A slice cut short of the end of the text ends where a piece begins (or at a forced cut).
		if (end === limit && limit < text.length && !beginsPiece(text, limit)) end = Math.max(lastBeginning, start + 1)
		yield text.slice(start, end)
		start = end
	}
}
