/**
 * The canonical request each client format makes is plain data: everything in it but an upload's
 * bytes survives JSON (so a log can show it and a cache can key on it), and what an upstream is
 * built from it is the same after the round trip. Ferry's extras stay apart from the body an
 * OpenAI-format upstream may receive.
 */
import { describe, expect, test } from 'bun:test'
import { canonicalRequestFromOpenAI, type CanonicalRequest } from '@/relay/formats/canonical'
import { canonicalRequestFromClaude } from '@/relay/formats/claude/client'
import { canonicalRequestFromGemini } from '@/relay/formats/gemini/client'
import { canonicalRequestFromResponses } from '@/relay/formats/responses/client'
import { claudeRequestBody } from '@/relay/providers/anthropic/request'
import { geminiRequestFromOpenAI } from '@/relay/providers/gemini/chat-request'

const SIGNATURE = 'SIG-CANONICAL-0123'

const claudeRequest = {
	model: 'claude-sonnet-4-20250514',
	max_tokens: 64,
	top_k: 12,
	thinking: { type: 'enabled', budget_tokens: 1024 },
	system: 'Be brief.',
	messages: [
		{ role: 'user', content: 'Weather in Paris?' },
		{ role: 'assistant', content: [
			{ type: 'thinking', thinking: 'Call the tool.', signature: SIGNATURE },
			{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { location: 'Paris' } },
		] },
		{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'timeout', is_error: true, cache_control: { type: 'ephemeral' } }] },
	],
}

const headers = new Headers({ 'anthropic-version': '2023-06-01', 'anthropic-beta': 'context-1m-2025-08-07' })

const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value))

describe('the canonical request', () => {
	test('a Claude request\'s canonical form survives JSON whole, and the Claude upstream body built from either is the same', () => {
		const text = JSON.stringify(claudeRequest)
		const canonical = canonicalRequestFromClaude(claudeRequest, text, headers, 'true') as CanonicalRequest
		expect(roundTrip(canonical)).toEqual(canonical)
		expect(canonical.extras).toEqual({
			topK: 12,
			thinking: { type: 'enabled', budget_tokens: 1024 },
			messages: [null, null, { thinking: [{ type: 'thinking', thinking: 'Call the tool.', signature: SIGNATURE }] }, { isError: true, cacheControl: { type: 'ephemeral' } }],
		})
		expect(canonical.native).toMatchObject({ format: 'claude', text, modelInBody: true, search: '?beta=true', headers: { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'context-1m-2025-08-07' } })
		const again = roundTrip(canonical)
		expect(claudeRequestBody(again.body, again.extras)).toEqual(claudeRequestBody(canonical.body, canonical.extras))
		expect(geminiRequestFromOpenAI(again.body, again.extras).generationConfig?.topK).toBe(12)
	})

	test('the body of a Claude request\'s canonical form carries none of Ferry\'s extras', () => {
		const { body } = canonicalRequestFromClaude(claudeRequest, JSON.stringify(claudeRequest), headers, null)
		const text = JSON.stringify(body)
		for (const key of ['top_k', 'thinking', 'is_error', 'claude_thinking', SIGNATURE]) expect(text).not.toContain(key)
	})

	test('an OpenAI client\'s thinking blocks move to the extras, and a request without them keeps its bytes', () => {
		const value = { model: 'claude-sonnet-4-20250514', messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello', claude_thinking: [{ type: 'thinking', thinking: 'Greet.', signature: SIGNATURE }] }] }
		const canonical = canonicalRequestFromOpenAI('chat', value, JSON.stringify(value))
		expect(roundTrip(canonical)).toEqual(canonical)
		expect(canonical.bodyText).toBeUndefined()
		expect(JSON.stringify(canonical.body)).not.toContain('claude_thinking')
		expect(canonical.extras.messages?.[1]?.thinking).toEqual([{ type: 'thinking', thinking: 'Greet.', signature: SIGNATURE }])

		const plain = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }
		const text = JSON.stringify(plain)
		expect(canonicalRequestFromOpenAI('chat', plain, text)).toEqual({ endpoint: 'chat', body: plain, extras: {}, bodyText: text })
	})

	test('Gemini and Responses requests\' canonical forms survive JSON whole, the client\'s own request included', () => {
		const gemini = { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], generationConfig: { topK: 3 } }
		const geminiCanonical = canonicalRequestFromGemini('generateContent', 'gemini-2.0-flash', gemini, JSON.stringify(gemini))
		expect(roundTrip(geminiCanonical)).toEqual(geminiCanonical)
		expect(geminiCanonical.native).toMatchObject({ format: 'gemini', modelInBody: false })

		const responses = { model: 'gpt-4o-mini', input: 'Hi', previous_response_id: 'resp_1' }
		const responsesCanonical = canonicalRequestFromResponses(responses, JSON.stringify(responses))
		expect(roundTrip(responsesCanonical)).toEqual(responsesCanonical)
		expect(responsesCanonical.native?.required).toBeString()
	})
})
