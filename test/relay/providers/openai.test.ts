import { describe, expect, test } from 'bun:test'
import { openai } from '@/relay/providers/openai'

const channel = { type: 1, baseUrl: 'https://api.openai.com', key: 'sk-channel', other: '', organization: '' }

describe('the OpenAI provider', () => {
	test('sends each endpoint to its /v1 path with the key as a bearer token', () => {
		for (const [endpoint, path] of [['chat', '/v1/chat/completions'], ['completions', '/v1/completions'], ['embeddings', '/v1/embeddings']] as const) {
			const request = openai.openai!.buildRequest(channel, endpoint, { model: 'gpt-4o-mini' })
			expect(request.url).toBe(`https://api.openai.com${path}`)
			expect(request.headers).toEqual({ 'content-type': 'application/json', authorization: 'Bearer sk-channel' })
		}
	})

	test('sends the organization header only when the channel has one', () => {
		const request = openai.openai!.buildRequest({ ...channel, organization: 'org-123' }, 'chat', { model: 'gpt-4o-mini' })
		expect(request.headers['openai-organization']).toBe('org-123')
	})

	test('passes the body through unchanged', () => {
		const body = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], temperature: 0.2, seed: 7, response_format: { type: 'json_object' } }
		expect(JSON.parse(openai.openai!.buildRequest(channel, 'chat', body).body)).toEqual(body)
	})
})
