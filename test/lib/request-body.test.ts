import { describe, expect, test } from 'bun:test'
import { MAX_FORM_FIELDS, MAX_JSON_DEPTH } from '@shared/api'
import { multipartBody } from '../helpers/multipart'
import { BODY_PROBLEM, type BodyProblem, nestsDeeperThan, parseJsonText, readRequestBody, RequestBodyError } from '@/lib/request-body'

/** `depth` arrays and objects inside one another, alternating, with a value at the bottom. */
function nested(depth: number): string {
	let text = '1'
	for (let level = 0; level < depth; level++) text = level % 2 === 0 ? `[${text}]` : `{"k":${text}}`
	return text
}

function problemOf(read: () => unknown): BodyProblem | undefined {
	try {
		read()
		return undefined
	} catch (error) {
		expect(error).toBeInstanceOf(RequestBodyError)
		return (error as RequestBodyError).problem
	}
}

async function asyncProblemOf(read: Promise<unknown>): Promise<BodyProblem | undefined> {
	try {
		await read
		return undefined
	} catch (error) {
		expect(error).toBeInstanceOf(RequestBodyError)
		return (error as RequestBodyError).problem
	}
}

const MAX_BYTES = 1024 * 1024
const post = (body: BodyInit, contentType?: string, headers: Record<string, string> = {}) =>
	new Request('http://ferry.test/', { method: 'POST', body, headers: contentType === undefined ? headers : { 'content-type': contentType, ...headers } })

function multipart(parts: [name: string, value: string][]) {
	const { text, contentType } = multipartBody(parts)
	return post(text, contentType)
}

describe('reading a JSON body with its nesting bounded', () => {
	test('a body nested exactly as deep as allowed is read, one level more is refused', () => {
		expect(parseJsonText(nested(MAX_JSON_DEPTH))).toBeDefined()
		expect(problemOf(() => parseJsonText(nested(MAX_JSON_DEPTH + 1)))).toBe(BODY_PROBLEM.tooDeep)
	})

	test('80 KB of nested arrays is refused as too deep', () => {
		expect(problemOf(() => parseJsonText('['.repeat(40_000) + ']'.repeat(40_000)))).toBe(BODY_PROBLEM.tooDeep)
	})

	test('brackets inside strings, escaped quotes and escaped backslashes are not nesting', () => {
		const brackets = '['.repeat(MAX_JSON_DEPTH * 2)
		const text = JSON.stringify({ a: brackets, b: `say \\"${brackets}`, c: 'ends in a backslash \\', d: [[1]], e: '{{{"' })
		expect(nestsDeeperThan(text)).toBe(false)
		expect(parseJsonText(text)).toEqual(JSON.parse(text))
	})

	test('nesting after a string that ends in an escaped backslash is still counted', () => {
		const text = `["\\\\",${nested(MAX_JSON_DEPTH)}]`
		expect(nestsDeeperThan(text)).toBe(true)
		expect(nestsDeeperThan(`["\\\\",${nested(MAX_JSON_DEPTH - 1)}]`)).toBe(false)
	})

	test('many arrays and objects side by side are not nesting', () => {
		const text = JSON.stringify(Array.from({ length: 10_000 }, () => ({ a: [1] })))
		expect(nestsDeeperThan(text)).toBe(false)
	})

	test('malformed JSON is refused as not JSON', () => {
		for (const text of ['{"a":', '[1,2', 'nul', '{"a" 1}', '"unterminated', ']]]']) expect(problemOf(() => parseJsonText(text))).toBe(BODY_PROBLEM.invalidJson)
	})
})

describe('reading a request body of any content type', () => {
	test('JSON is read as sent and as a value, also without a content type; an empty body without one is empty', async () => {
		expect(await readRequestBody(post('{"a":[1]}', 'application/json; charset=utf-8'), MAX_BYTES)).toEqual({ type: 'json', text: '{"a":[1]}', value: { a: [1] } })
		expect(await readRequestBody(post('{"a":1}'), MAX_BYTES)).toMatchObject({ type: 'json', value: { a: 1 } })
		expect(await readRequestBody(post(''), MAX_BYTES)).toEqual({ type: 'empty' })
		expect(await asyncProblemOf(readRequestBody(post('', 'application/json'), MAX_BYTES))).toBe(BODY_PROBLEM.invalidJson)
	})

	test('a body past the limit is refused, whether its length is declared or not', async () => {
		expect(await asyncProblemOf(readRequestBody(post('x'.repeat(MAX_BYTES + 1), 'text/plain'), MAX_BYTES))).toBe(BODY_PROBLEM.tooLarge)
		const unannounced = new ReadableStream({
			start(controller) {
				for (let chunk = 0; chunk < 5; chunk++) controller.enqueue(new Uint8Array(MAX_BYTES / 4))
				controller.close()
			},
		})
		expect(await asyncProblemOf(readRequestBody(post(unannounced, 'text/plain'), MAX_BYTES))).toBe(BODY_PROBLEM.tooLarge)
	})

	test('an endless body that declares no length is refused at the limit, having read no more than one chunk past it', async () => {
		let pulled = 0
		const endless = new ReadableStream({
			pull(controller) {
				pulled++
				controller.enqueue(new Uint8Array(MAX_BYTES / 4).fill(0x20))
			},
		}, { highWaterMark: 0 })
		expect(await asyncProblemOf(readRequestBody(post(endless, 'text/plain'), MAX_BYTES))).toBe(BODY_PROBLEM.tooLarge)
		expect(pulled).toBeLessThanOrEqual(6)
	})

	test('a body longer than the length it declares is still refused past the limit, and one within it is read whole', async () => {
		const understated = new ReadableStream({
			start(controller) {
				for (let chunk = 0; chunk < 5; chunk++) controller.enqueue(new Uint8Array(MAX_BYTES / 4).fill(0x20))
				controller.close()
			},
		})
		expect(await asyncProblemOf(readRequestBody(post(understated, 'text/plain', { 'content-length': '10' }), MAX_BYTES))).toBe(BODY_PROBLEM.tooLarge)
		const text = '{"model":"gpt-4o-mini"}'
		expect(await readRequestBody(post(text, 'application/json', { 'content-length': String(text.length) }), MAX_BYTES)).toEqual({ type: 'json', text, value: { model: 'gpt-4o-mini' } })
	})

	test('a content type other than JSON, forms and text is refused', async () => {
		for (const type of ['application/octet-stream', 'application/xml', 'image/png']) {
			expect(await asyncProblemOf(readRequestBody(post('{}', type), MAX_BYTES))).toBe(BODY_PROBLEM.unsupportedType)
		}
		expect(await readRequestBody(post('{}', 'application/merge-patch+json'), MAX_BYTES)).toMatchObject({ type: 'json', value: {} })
	})

	test('form fields are text, never read as JSON, and a repeated name gathers its values in order', async () => {
		const deep = '['.repeat(40_000) + ']'.repeat(40_000)
		const form = new URLSearchParams([['username', deep], ['tag', 'a'], ['tag', 'b'], ['tag', 'c'], ['quota', '5']])
		expect(await readRequestBody(post(form.toString(), 'application/x-www-form-urlencoded'), MAX_BYTES)).toEqual({ type: 'form', fields: { username: deep, tag: ['a', 'b', 'c'], quota: '5' } })
		expect(await readRequestBody(multipart([['username', deep], ['tag', 'a'], ['tag', 'b']]), MAX_BYTES)).toMatchObject({ type: 'multipart', fields: { username: deep, tag: ['a', 'b'] } })
	})

	test('a field named __proto__ is an own field and changes no prototype', async () => {
		const body = await readRequestBody(post('__proto__=x&constructor=y', 'application/x-www-form-urlencoded'), MAX_BYTES)
		if (body.type !== 'form') throw new Error(`read as ${body.type}`)
		expect(Object.getPrototypeOf(body.fields)).toBe(Object.prototype)
		expect(Object.hasOwn(body.fields, '__proto__')).toBe(true)
		expect(body.fields.constructor as unknown).toBe('y')
	})

	test(`forms and uploads of more than ${MAX_FORM_FIELDS} fields are refused, and of exactly that many read`, async () => {
		const pairs = (count: number) => Array.from({ length: count }, (_, index): [string, string] => ['x', String(index)])
		expect(await readRequestBody(post(new URLSearchParams(pairs(MAX_FORM_FIELDS)).toString(), 'application/x-www-form-urlencoded'), MAX_BYTES)).toMatchObject({ type: 'form' })
		expect(await asyncProblemOf(readRequestBody(post(new URLSearchParams(pairs(MAX_FORM_FIELDS + 1)).toString(), 'application/x-www-form-urlencoded'), MAX_BYTES))).toBe(BODY_PROBLEM.tooManyFields)
		const read = await readRequestBody(multipart(pairs(MAX_FORM_FIELDS)), MAX_BYTES)
		expect(read.type === 'multipart' && read.fields.x).toHaveLength(MAX_FORM_FIELDS)
		expect(await asyncProblemOf(readRequestBody(multipart(pairs(MAX_FORM_FIELDS + 1)), MAX_BYTES))).toBe(BODY_PROBLEM.tooManyFields)
		expect(await asyncProblemOf(readRequestBody(multipart(pairs(40_000)), 4 * MAX_BYTES))).toBe(BODY_PROBLEM.tooManyFields)
	})

	test('uploads keep their file parts apart from their text fields', async () => {
		const form = new FormData()
		form.append('model', 'whisper-1')
		form.append('file', new File([new Uint8Array([1, 2, 3])], 'a.wav', { type: 'audio/wav' }))
		const body = await readRequestBody(new Request('http://ferry.test/', { method: 'POST', body: form }), MAX_BYTES)
		if (body.type !== 'multipart') throw new Error(`read as ${body.type}`)
		expect(body.fields).toEqual({ model: 'whisper-1' })
		expect([...body.files]).toEqual(['file'])
	})

	test('multipart without a boundary, or not well-formed, is refused as malformed', async () => {
		expect(await asyncProblemOf(readRequestBody(post('a', 'multipart/form-data'), MAX_BYTES))).toBe(BODY_PROBLEM.malformedForm)
		expect(await asyncProblemOf(readRequestBody(post('not multipart at all', 'multipart/form-data; boundary=x'), MAX_BYTES))).toBe(BODY_PROBLEM.malformedForm)
	})
})
