/**
 * Finds any of a list of words in text with one Aho–Corasick automaton: built once for the list,
 * then linear in the text whatever the number of words. Matching is case-insensitive by simple
 * per-character lower-casing of UTF-16 code units (`A` = `a`, `Ä` = `ä`, `Σ` = `σ`); characters whose
 * lower case is longer than one unit (`İ`) and letters outside the Basic Multilingual Plane match only
 * as written. Nothing else is normalised: full-width and half-width forms are different characters.
 *
 * The automaton state is a number, so a text that arrives in pieces (a stream) is matched across the
 * pieces by passing the state of one `scan` to the next.
 */

const UNITS = 65_536
/** Both a state and "no transition" in the root's table: no edge of the trie leads back to the root. */
const ROOT = 0
const NONE = -1

let foldTable: Uint16Array | undefined

/** Each UTF-16 unit's lower case when that is one unit, else the unit itself; built on first use. */
function folds(): Uint16Array {
	if (foldTable) return foldTable
	const table = new Uint16Array(UNITS)
	for (let unit = 0; unit < UNITS; unit++) {
		const lower = String.fromCharCode(unit).toLowerCase()
		table[unit] = lower.length === 1 ? lower.charCodeAt(0) : unit
	}
	foldTable = table
	return table
}

/** Called for each occurrence of a word: `end` is the index just after it in the scanned text. */
type MatchListener = (end: number, word: number) => void

export interface WordMatcher {
	/** The distinct words, trimmed, first spelling kept; a match names one by its index here. */
	readonly words: readonly string[]
	/**
	 * Runs the automaton over `text` (or the units `from`…`to` of it) from `state` (0 to start afresh)
	 * and answers the state after it; `end` of a match is an index into `text`.
	 */
	scan(text: string, state: number, onMatch?: MatchListener, from?: number, to?: number): number
	/** The distinct words found in the texts, in the order first found. */
	wordsIn(texts: Iterable<string>): string[]
	/**
	 * How many of the last units scanned could begin a word still to be completed: text before them
	 * can no longer be part of any match, text within them may.
	 */
	pending(state: number): number
	/** The length of a word, in UTF-16 units. */
	lengthOf(word: number): number
}

/**
 * Builds the automaton for a list; blank entries are ignored and words differing only in case count
 * once. Linear in the total length of the words, plus sorting the trie's edges once.
 */
export function compileWordMatcher(list: Iterable<string>): WordMatcher {
	const fold = folds()
	const words: string[] = []
	// The trie while it is built: an edge is `parent * UNITS + unit` → child; node 0 is the root.
	const trie = new Map<number, number>()
	const edgeKeys: number[] = []
	const wordEndingAt: number[] = [NONE]
	const depths: number[] = [0]
	for (const entry of list) {
		const word = entry.trim()
		if (word === '') continue
		let node = ROOT
		for (let index = 0; index < word.length; index++) {
			const key = node * UNITS + fold[word.charCodeAt(index)]!
			let next = trie.get(key)
			if (next === undefined) {
				next = depths.length
				depths.push(depths[node]! + 1)
				wordEndingAt.push(NONE)
				trie.set(key, next)
				edgeKeys.push(key)
			}
			node = next
		}
		// The same word in another case ends where the first did.
		if (wordEndingAt[node] !== NONE) continue
		wordEndingAt[node] = words.length
		words.push(word)
	}

	// Edges in compact form: the root's by unit in a table, every node's sorted by unit in one array
	// (sorting the keys sorts by parent, then unit).
	const size = depths.length
	const sortedKeys = Float64Array.from(edgeKeys).sort()
	const rootNext = new Int32Array(UNITS)
	const edgeStart = new Int32Array(size + 1)
	const edgeUnits = new Uint16Array(sortedKeys.length)
	const edgeTargets = new Int32Array(sortedKeys.length)
	sortedKeys.forEach((key, position) => {
		const parent = Math.floor(key / UNITS)
		const unit = key - parent * UNITS
		const target = trie.get(key)!
		edgeUnits[position] = unit
		edgeTargets[position] = target
		edgeStart[parent + 1]!++
		if (parent === ROOT) rootNext[unit] = target
	})
	for (let node = 0; node < size; node++) edgeStart[node + 1]! += edgeStart[node]!

	const child = (node: number, unit: number): number => {
		if (node === ROOT) return rootNext[unit]!
		let low = edgeStart[node]!
		let high = edgeStart[node + 1]! - 1
		while (low <= high) {
			const middle = (low + high) >> 1
			const found = edgeUnits[middle]!
			if (found === unit) return edgeTargets[middle]!
			if (found < unit) low = middle + 1
			else high = middle - 1
		}
		return ROOT
	}

	// Failure links (the longest proper suffix that is also in the trie) and output links (the
	// nearest node on that chain where a word ends), breadth first.
	const failure = new Int32Array(size)
	const output = new Int32Array(size).fill(NONE)
	const ending = Int32Array.from(wordEndingAt)
	const depth = Int32Array.from(depths)
	// How much of the text just scanned may still begin a word: the depth of the deepest node on the
	// failure chain that has edges (a node where a word ends and nothing continues holds nothing back).
	const open = new Int32Array(size)
	const queue = new Int32Array(size)
	let head = 0
	let tail = 0
	for (let position = edgeStart[ROOT]!; position < edgeStart[ROOT + 1]!; position++) queue[tail++] = edgeTargets[position]!
	while (head < tail) {
		const node = queue[head++]!
		// The failure link is shallower, so it was settled earlier in this breadth-first order.
		open[node] = edgeStart[node + 1]! > edgeStart[node]! ? depth[node]! : open[failure[node]!]!
		for (let position = edgeStart[node]!; position < edgeStart[node + 1]!; position++) {
			const unit = edgeUnits[position]!
			const target = edgeTargets[position]!
			let fallback = failure[node]!
			while (fallback !== ROOT && child(fallback, unit) === ROOT) fallback = failure[fallback]!
			const suffix = child(fallback, unit)
			failure[target] = suffix === target ? ROOT : suffix
			output[target] = ending[failure[target]!]! !== NONE ? failure[target]! : output[failure[target]!]!
			queue[tail++] = target
		}
	}

	const scan = (text: string, start: number, onMatch?: MatchListener, from = 0, to = text.length): number => {
		let state = start
		for (let index = from; index < to; index++) {
			const unit = fold[text.charCodeAt(index)]!
			// Most text never leaves the root: one table read per unit there.
			if (state === ROOT) {
				state = rootNext[unit]!
				if (state === ROOT) continue
			} else {
				for (;;) {
					const next = child(state, unit)
					if (next !== ROOT) {
						state = next
						break
					}
					state = failure[state]!
					if (state === ROOT) {
						state = rootNext[unit]!
						break
					}
				}
				if (state === ROOT) continue
			}
			if (onMatch) {
				for (let node = ending[state] !== NONE ? state : output[state]!; node !== NONE; node = output[node]!) onMatch(index + 1, ending[node]!)
			}
		}
		return state
	}

	return {
		words,
		scan,
		wordsIn(texts) {
			const found = new Set<number>()
			const record: MatchListener = (_end, word) => {
				found.add(word)
			}
			for (const text of texts) scan(text, ROOT, record)
			return [...found].map((word) => words[word]!)
		},
		pending: (state) => open[state]!,
		lengthOf: (word) => words[word]!.length,
	}
}
