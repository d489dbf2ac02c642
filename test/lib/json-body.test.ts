import { describe, expect, test } from 'bun:test'
import { MAX_JSON_DEPTH, MESSAGES } from '@shared/api'
import { JsonBodyError, nestsDeeperThan, parseJsonBody } from '@/lib/json-body'

/** `depth` arrays and objects inside one another, alternating, with a value at the bottom. */
function nested(depth: number): string {
	let text = '1'
	for (let level = 0; level < depth; level++) text = level % 2 === 0 ? `[${text}]` : `{"k":${text}}`
	return text
}

function refusal(text: string): string | undefined {
	try {
		parseJsonBody(text)
		return undefined
	} catch (error) {
		expect(error).toBeInstanceOf(JsonBodyError)
		return (error as Error).message
	}
}

describe('reading a JSON body with its nesting bounded', () => {
	test('a body nested exactly as deep as allowed is read, one level more is refused', () => {
		expect(parseJsonBody(nested(MAX_JSON_DEPTH))).toBeDefined()
		expect(refusal(nested(MAX_JSON_DEPTH + 1))).toBe(MESSAGES.jsonTooDeep)
	})

	test('80 KB of nested arrays is refused as too deep', () => {
		expect(refusal('['.repeat(40_000) + ']'.repeat(40_000))).toBe(MESSAGES.jsonTooDeep)
	})

	test('brackets inside strings, escaped quotes and escaped backslashes are not nesting', () => {
		const brackets = '['.repeat(MAX_JSON_DEPTH * 2)
		const text = JSON.stringify({ a: brackets, b: `say \\"${brackets}`, c: 'ends in a backslash \\', d: [[1]], e: '{{{"' })
		expect(nestsDeeperThan(text)).toBe(false)
		expect(parseJsonBody(text)).toEqual(JSON.parse(text))
	})

	test('nesting after a string that ends in an escaped backslash is still counted', () => {
		const text = `["\\\\",${nested(MAX_JSON_DEPTH)}]`
		expect(nestsDeeperThan(text)).toBe(true)
		expect(nestsDeeperThan(`["\\\\",${nested(MAX_JSON_DEPTH - 1)}]`)).toBe(false)
	})

	test('malformed JSON is refused as not JSON', () => {
		for (const text of ['{"a":', '[1,2', 'nul', '{"a" 1}', '"unterminated', ']]]']) expect(refusal(text)).toBe(MESSAGES.invalidJson)
	})
})
