/**
 * Checking answers for sensitive words without the relay around it: whole answers masked or found
 * for refusal, and streamed text held back just enough that no piece of a listed word is sent, the
 * stream stopping before the word or masking it whole, wherever the chunks split it.
 */
import { describe, expect, test } from 'bun:test'
import { compileWordMatcher } from '@/lib/word-matcher'
import { checkWholeAnswer, streamAnswerFilter, TextFilter } from '@/relay/sensitive-words/answer-filter'
import type { AnswerPolicy } from '@/relay/sensitive-words/words'

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

/** A chat-form logprobs token with its UTF-8 bytes and alternatives (the first being the token itself, as OpenAI lists it). */
const token = (text: string, alternatives: string[] = []) => ({
	token: text, logprob: -0.5, bytes: Array.from(new TextEncoder().encode(text)),
	top_logprobs: [text, ...alternatives].map((alternative) => ({ token: alternative, logprob: -1, bytes: Array.from(new TextEncoder().encode(alternative)) })),
})
/** A token made of raw UTF-8 bytes (a character split across tokens shows as escapes in `token`, as OpenAI writes it). */
const byteToken = (bytes: number[]) => ({ token: bytes.map((byte) => `\\x${byte.toString(16)}`).join(''), logprob: -0.5, bytes, top_logprobs: [] })
const tokensOf = (entries: { token: unknown }[]) => entries.map((entry) => entry.token)
const decoded = (entries: { bytes?: unknown }[]) => new TextDecoder().decode(Uint8Array.from(entries.flatMap((entry) => entry.bytes as number[])))

describe('checking every text of a whole answer', () => {
	test('masks words in refusals, reasoning, content parts, audio transcripts, tool and function-call arguments and Claude\'s thinking blocks', () => {
		const answer = {
			choices: [{
				index: 0,
				message: {
					role: 'assistant', content: [{ type: 'text', text: 'part with secret' }, { type: 'refusal', refusal: 'no secret' }], refusal: 'I keep the secret', reasoning: 'the secret plan',
					audio: { id: 'audio_1', data: 'AAAA', transcript: 'a secret said' },
					function_call: { name: 'legacy', arguments: '{"q":"secret"}' },
					tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"the secret"}' } }],
					claude_thinking: [{ type: 'thinking', thinking: 'think of the secret', signature: 'sig' }, { type: 'redacted_thinking', data: 'opaque' }],
				},
			}],
		}
		expect(checkWholeAnswer(policy(false), answer)).toEqual(['secret'])
		expect(JSON.stringify(answer).toLowerCase()).not.toContain('secret')
		const message = answer.choices[0]!.message
		expect(message.refusal).toBe('I keep the **###**')
		expect(message.tool_calls[0]!.function.arguments).toBe('{"q":"the **###**"}')
		expect(message.claude_thinking[0]).toEqual({ type: 'thinking', thinking: 'think of the **###**', signature: 'sig' })
	})

	test('masks a word in the logprobs tokens, whole or split across tokens, with their bytes and the alternatives that spell it', () => {
		const answer = { choices: [{ index: 0, message: { content: 'The secret is 机密' }, logprobs: { content: [token('The'), token(' sec', [' secret', ' seal']), token('ret'), token(' is'), token(' 机密')], refusal: null } }] }
		expect(checkWholeAnswer(policy(false), answer)).toEqual(['secret', '机密'])
		const content = answer.choices[0]!.logprobs.content
		expect(tokensOf(content)).toEqual(['The', ' **###**', '', ' is', ' **###**'])
		expect(decoded(content)).toBe('The **###** is **###**')
		expect(tokensOf(content[1]!.top_logprobs)).toEqual([' **###**', '**###**', ' seal'])
		expect(JSON.stringify(answer.choices[0]!.logprobs).toLowerCase()).not.toContain('secret')
	})

	test('reads the bytes of tokens that split a character, and finds a word the token strings do not show', () => {
		// 机 is E6 9C BA, 密 is E5 AF 86: the first character is split across two byte tokens.
		const answer = { choices: [{ index: 0, message: { content: 'x' }, logprobs: { content: [token('A '), byteToken([0xe6, 0x9c]), byteToken([0xba]), token('密'), token('!')], refusal: null } }] }
		expect(checkWholeAnswer(policy(false), answer)).toEqual(['机密'])
		const content = answer.choices[0]!.logprobs.content
		expect(decoded(content)).toBe('A **###**!')
		expect(tokensOf(content)).toEqual(['A ', '', '**###**', '', '!'])
	})

	test('finds a word an alternative spells with the chosen text before it or after it', () => {
		const before = { choices: [{ index: 0, text: ' my sea', logprobs: { content: [token(' my'), token(' se'), token('a', ['cret'])], refusal: null } }] }
		expect(checkWholeAnswer(policy(false), before)).toEqual(['secret'])
		expect(tokensOf(before.choices[0]!.logprobs.content[2]!.top_logprobs)).toEqual(['a', '**###**'])
		const after = { choices: [{ index: 0, text: ' bigret', logprobs: { content: [token(' big', [' sec']), token('ret')], refusal: null } }] }
		expect(checkWholeAnswer(policy(false), after)).toEqual(['secret'])
		expect(tokensOf(after.choices[0]!.logprobs.content[0]!.top_logprobs)).toEqual([' big', '**###**'])
		expect(tokensOf(after.choices[0]!.logprobs.content)).toEqual([' big', 'ret'])
	})

	test('masks the legacy completions logprobs: tokens and the keys of top_logprobs', () => {
		const answer = { choices: [{ index: 0, text: 'A secret', logprobs: { tokens: ['A', ' sec', 'ret'], token_logprobs: [-1, -2, -3], top_logprobs: [{ A: -1 }, { ' sec': -2, ' secret': -2.5 }, { ret: -3 }] as Record<string, number>[], text_offset: [0, 1, 5] } }] }
		expect(checkWholeAnswer(policy(false), answer)).toEqual(['secret'])
		expect(answer.choices[0]!.logprobs).toEqual({ tokens: ['A', ' **###**', ''], token_logprobs: [-1, -2, -3], top_logprobs: [{ A: -1 }, { ' **###**': -2, '**###**': -2.5 }, { '': -3 }], text_offset: [0, 1, 5] })
	})

	test('finds a word only the logprobs carry when the answer is to be refused, and changes nothing', () => {
		const answer = { choices: [{ index: 0, message: { content: 'clean' }, logprobs: { content: [token(' sec'), token('ret')], refusal: null } }] }
		const before = structuredClone(answer)
		expect(checkWholeAnswer(policy(true), answer)).toEqual(['secret'])
		expect(answer).toEqual(before)
	})
})

describe('filtering every text of a stream', () => {
	const chunk = (choice: Record<string, unknown>) => ({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, finish_reason: null, ...choice } as Record<string, any>] })
	const logprobs = (...entries: unknown[]) => ({ content: entries, refusal: null })

	test('masks a word split across chunks in the logprobs tokens, releasing the tokens once the word is known', () => {
		const filter = streamAnswerFilter(policy(false))
		const first = chunk({ delta: { content: 'The sec' }, logprobs: logprobs(token('The'), token(' sec', [' secret'])) })
		filter.filter(first)
		expect(first.choices[0]!.delta).toEqual({ content: 'The ' })
		expect(tokensOf((first.choices[0]!.logprobs as { content: { token: string }[] }).content)).toEqual(['The'])
		const second = chunk({ delta: { content: 'ret!' }, logprobs: logprobs(token('ret'), token('!')) })
		filter.filter(second)
		expect(second.choices[0]!.delta).toEqual({ content: '**###**!' })
		const sent = (second.choices[0]!.logprobs as { content: { token: string; top_logprobs: { token: string }[] }[] }).content
		expect(tokensOf(sent)).toEqual([' **###**', '', '!'])
		expect(tokensOf(sent[0]!.top_logprobs)).toEqual([' **###**', '**###**'])
		expect(filter.words()).toEqual(['secret'])
	})

	test('stops at a word in the logprobs with the content_filter finish reason, sending none of its tokens', () => {
		const filter = streamAnswerFilter(policy(true))
		const first = chunk({ delta: { content: 'The sec' }, logprobs: logprobs(token('The'), token(' sec')) })
		filter.filter(first)
		const second = chunk({ delta: { content: 'ret' }, logprobs: logprobs(token('ret')) })
		expect(filter.filter(second)).toEqual({ changed: true, stopped: true })
		expect(second.choices[0]).toMatchObject({ delta: { content: '' }, logprobs: { content: [] }, finish_reason: 'content_filter' })
	})

	test('masks words in streamed tool-call arguments, refusals and reasoning, each across its own chunks', () => {
		const filter = streamAnswerFilter(policy(false))
		const pieces = [
			chunk({ delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"sec' } }] } }),
			chunk({ delta: { tool_calls: [{ index: 0, function: { arguments: 'ret"}' } }], refusal: 'no sec', reasoning: 'a sec' } }),
			chunk({ delta: { refusal: 'ret', reasoning: 'ret' } }),
			chunk({ delta: {}, finish_reason: 'tool_calls' }),
		]
		for (const piece of pieces) filter.filter(piece)
		const joined = (read: (delta: any) => unknown) => pieces.map((piece) => read(piece.choices[0]!.delta) ?? '').join('')
		expect(joined((delta) => delta.tool_calls?.[0]?.function?.arguments)).toBe('{"q":"**###**"}')
		expect(joined((delta) => delta.refusal)).toBe('no **###**')
		expect(joined((delta) => delta.reasoning)).toBe('a **###**')
	})

	test('answers held tool-call arguments and logprobs tokens in the last chunk when the upstream ends without a finish reason', () => {
		const filter = streamAnswerFilter(policy(false))
		filter.filter(chunk({ delta: { tool_calls: [{ index: 2, function: { arguments: '{"q":"se' } }] }, logprobs: logprobs(token(' se')) }))
		expect(filter.finish()).toEqual({
			id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm',
			choices: [{ index: 0, delta: { tool_calls: [{ index: 2, function: { arguments: 'se' } }] }, logprobs: { content: [token(' se')], refusal: null }, finish_reason: null }],
		})
	})
})
