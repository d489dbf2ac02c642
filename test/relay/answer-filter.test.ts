/**
 * Checking answers for sensitive words without the relay around it: whole answers masked or found
 * for refusal, and streamed text held back just enough that no piece of a listed word is sent, the
 * stream stopping before the word or masking it whole, wherever the chunks split it.
 */
import { describe, expect, test } from 'bun:test'
import { compileWordMatcher } from '@/lib/word-matcher'
import { checkWholeAnswer, streamAnswerFilter, TextFilter } from '@/relay/pipeline/answer-filter'
import type { AnswerPolicy } from '@/relay/pipeline/sensitive-words'

const policy = (stop: boolean, words = ['secret', '机密', 'bad word']): AnswerPolicy => ({ matcher: compileWordMatcher(words), stop })

/** What a text filter sends for each piece, and the flush at the end. */
function sent(filter: TextFilter, pieces: string[]) {
	const output = pieces.map((piece) => filter.push(piece))
	return { output, flushed: filter.flush() }
}

describe('checking a whole answer', () => {
	const answer = () => ({
		choices: [
			{ index: 0, message: { role: 'assistant', content: 'The SECRET is out, secret again', reasoning_content: 'think of 机密' } },
			{ index: 1, text: 'a bad word here' },
		],
	})

	test('masks every word in content, reasoning and completion text when the answer is not stopped', () => {
		const checked = answer()
		expect(checkWholeAnswer(policy(false), checked)).toEqual(['机密', 'secret', 'bad word'])
		expect(checked.choices[0]!.message!.content).toBe('The **###** is out, **###** again')
		expect(checked.choices[0]!.message!.reasoning_content).toBe('think of **###**')
		expect(checked.choices[1]!.text).toBe('a **###** here')
	})

	test('finds the words and leaves the answer as it was when it is to be refused', () => {
		const checked = answer()
		expect(checkWholeAnswer(policy(true), checked)).toEqual(['机密', 'secret', 'bad word'])
		expect(checked).toEqual(answer())
	})

	test('finds nothing in an answer without a listed word, or without text', () => {
		expect(checkWholeAnswer(policy(true), { choices: [{ message: { content: 'all clear' } }] })).toEqual([])
		expect(checkWholeAnswer(policy(true), { choices: [{ message: { content: null, tool_calls: [] } }] })).toEqual([])
	})
})

describe('filtering streamed text', () => {
	test('sends text that cannot begin a word at once, and holds back only what could', () => {
		const filter = new TextFilter(policy(false), new Set())
		expect(sent(filter, ['Hello ', 'there, se', 'ven seas'])).toEqual({ output: ['Hello ', 'there, ', 'seven sea'], flushed: 's' })
	})

	test('stops before a word split across chunks, sending none of it', () => {
		const found = new Set<string>()
		const filter = new TextFilter(policy(true), found)
		expect(sent(filter, ['The s', 'ec', 'ret is', ' out'])).toEqual({ output: ['The ', '', '', ''], flushed: '' })
		expect(filter.stopped).toBe(true)
		expect([...found]).toEqual(['secret'])
	})

	test('masks a word split across chunks whole, and Chinese words alike', () => {
		const filter = new TextFilter(policy(false), new Set())
		const { output, flushed } = sent(filter, ['The sec', 'ret, the ', '机', '密 and a bad', ' word.'])
		expect(output.join('') + flushed).toBe('The **###**, the **###** and a **###**.')
	})

	test('masks overlapping words as one span, even when one of them reaches into held text', () => {
		const filter = new TextFilter(policy(false, ['ab', 'bcde']), new Set())
		const { output, flushed } = sent(filter, ['xa', 'bc', 'd', 'ey'])
		expect(output.join('') + flushed).toBe('x**###**y')
	})

	test('gives the same text whatever the chunking', () => {
		const text = 'Secrets: a secret, 机密资料, bad words and a bad wordsmith.'
		const whole = new TextFilter(policy(false), new Set())
		const expected = whole.push(text) + whole.flush()
		for (const size of [1, 2, 3, 5, 8]) {
			const filter = new TextFilter(policy(false), new Set())
			let result = ''
			for (let start = 0; start < text.length; start += size) result += filter.push(text.slice(start, start + size))
			expect(result + filter.flush()).toBe(expected)
		}
		expect(expected).toBe('**###**s: a **###**, **###**资料, **###**s and a **###**smith.')
	})
})

describe('filtering a stream of chunks', () => {
	const chunk = (delta: Record<string, unknown>, finish: string | null = null, index = 0) => ({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index, delta, finish_reason: finish }] })

	test('flushes the held text into the chunk that finishes the choice', () => {
		const filter = streamAnswerFilter(policy(false))
		const first = chunk({ content: 'a se' })
		expect(filter.filter(first)).toEqual({ changed: true, stopped: false })
		expect(first.choices[0]!.delta).toEqual({ content: 'a ' })
		const last = chunk({}, 'stop')
		filter.filter(last)
		expect(last.choices[0]!.delta).toEqual({ content: 'se' })
		expect(filter.finish()).toBeUndefined()
	})

	test('stops the stream at a word with the content_filter finish reason, blanking every later text', () => {
		const filter = streamAnswerFilter(policy(true))
		filter.filter(chunk({ reasoning_content: 'keep the sec' }))
		// Reasoning comes before the content in a delta: the content after the word is not sent either.
		const hit = chunk({ reasoning_content: 'ret', content: 'more' })
		expect(filter.filter(hit)).toEqual({ changed: true, stopped: true })
		expect(hit.choices[0]).toEqual({ index: 0, delta: { reasoning_content: '', content: '' }, finish_reason: 'content_filter' })
		expect(filter.words()).toEqual(['secret'])
	})

	test('answers a last chunk with the text still held when the upstream ends without a finish reason', () => {
		const filter = streamAnswerFilter(policy(false))
		filter.filter(chunk({ content: 'ends with se' }))
		filter.filter({ id: 'c1', object: 'text_completion', created: 1, model: 'm', choices: [{ index: 1, text: 'and ba', finish_reason: null }] })
		expect(filter.finish()).toEqual({
			id: 'c1', object: 'text_completion', created: 1, model: 'm',
			choices: [{ index: 0, delta: { content: 'se' }, finish_reason: null }, { index: 1, text: 'ba', finish_reason: null }],
		})
	})
})
