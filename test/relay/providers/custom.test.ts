import { describe, expect, test } from 'bun:test'
import { custom } from '@/relay/providers/custom'

describe('the custom provider', () => {
	test('sends every call to the full base URL, with {model} replaced by the upstream model', () => {
		const channel = { type: 8, baseUrl: 'https://llm.example.com/serve/{model}/chat', key: 'custom-key', other: '', organization: '' }
		const request = custom.openai!.buildRequest(channel, 'chat', { model: 'llama 3/70b' })
		expect(request.url).toBe('https://llm.example.com/serve/llama%203%2F70b/chat')
		expect(request.headers.authorization).toBe('Bearer custom-key')
	})

	test('uses a base URL without {model} as it is', () => {
		const channel = { type: 8, baseUrl: 'https://llm.example.com/v1/chat/completions', key: 'k', other: '', organization: '' }
		expect(custom.openai!.buildRequest(channel, 'chat', { model: 'any' }).url).toBe('https://llm.example.com/v1/chat/completions')
	})
})
