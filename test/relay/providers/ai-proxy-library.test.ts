import { describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { failureOf, readStream, setUpProviderTest } from '../../helpers/fixture-upstream'

const MODEL = 'gpt-3.5-turbo'
const LIBRARY_ID = 'lib-7d1a'

describe('the AI Proxy Library provider', () => {
	const suite = setUpProviderTest({
		fixtures: 'ai-proxy-library',
		answer: 'ask.json',
		modelRatio: { [MODEL]: 1 },
		channels: [{ type: CHANNEL_TYPE.aiProxyLibrary, key: 'aip-library-key', models: MODEL, other: LIBRARY_ID }],
	})

	test('asks the channel\'s library the last user message and answers with the cited documents, counting tokens locally', async () => {
		suite.upstream.answerWith('ask.json')
		const answer = await suite.client.chat.completions.create({ model: MODEL, messages: [
			{ role: 'system', content: 'Answer from the docs.' },
			{ role: 'user', content: 'What changes a balance?' },
			{ role: 'assistant', content: 'Let me look.' },
			{ role: 'user', content: [{ type: 'text', text: 'How does Ferry bill?' }] },
		] })
		const sent = suite.upstream.requests.at(-1)!
		expect(sent.method).toBe('POST')
		expect(sent.path).toBe('/api/library/ask')
		expect(sent.headers.authorization).toBe('Bearer aip-library-key')
		expect(sent.body).toEqual({ model: MODEL, query: 'How does Ferry bill?', libraryId: LIBRARY_ID, stream: false })
		expect(answer.model).toBe(MODEL)
		expect(answer.choices[0]!.message.content).toBe('Ferry keeps one ledger for every balance change.\n\n- [Ferry design](https://docs.example/ferry/design)')
		expect(answer.choices[0]!.finish_reason).toBe('stop')
		const log = await suite.lastLog()
		expect(log).toMatchObject({ model_name: MODEL })
		expect(log.prompt_tokens).toBeGreaterThan(0)
		expect(log.completion_tokens).toBeGreaterThan(0)
		expect(log.other).toMatchObject({ local_count_tokens: true })
	})

	test('streams the answer pieces, then the documents, then stop', async () => {
		suite.upstream.answerWith('chat-stream.sse')
		const stream = await suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Ledger?' }], stream: true, stream_options: { include_usage: true } })
		const { text, finishReasons } = await readStream(stream)
		expect(suite.upstream.requests.at(-1)!.body).toMatchObject({ query: 'Ledger?', stream: true, libraryId: LIBRARY_ID })
		expect(text).toBe('Ferry keeps one ledger.\n\n- [Ferry design](https://docs.example/ferry/design)')
		expect(finishReasons.filter(Boolean)).toEqual(['stop'])
		const log = await suite.lastLog()
		expect(log).toMatchObject({ model_name: MODEL, is_stream: true })
		expect(log.completion_tokens).toBeGreaterThan(0)
		expect(log.other).toMatchObject({ local_count_tokens: true })
	})

	test('turns a refusal inside a 200 answer into an upstream error for the client, unbilled', async () => {
		suite.upstream.answerWith('error-no-library.json', 200)
		const error = await failureOf(suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }))
		expect(error).toBeInstanceOf(OpenAI.APIError)
		expect(error?.status).toBe(400)
		expect(error?.message).toContain('library not found')
	})

	test('reports rejected channel credentials as a gateway error', () => suite.expectRejectedCredentials(() => suite.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }), 'error-unauthorized.json'))
})
