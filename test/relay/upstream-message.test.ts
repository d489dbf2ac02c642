import { describe, expect, test } from 'bun:test'
import { scrubSecrets, upstreamMessageOf } from '@/relay/upstream/messages'

describe('what is told of an upstream error', () => {
	test('reads the message of every error shape the relay and the channel tools meet', () => {
		expect(upstreamMessageOf('{"error":{"message":"openai"}}')).toBe('openai')
		expect(upstreamMessageOf('{"error":"plain"}')).toBe('plain')
		expect(upstreamMessageOf('{"message":"cohere"}')).toBe('cohere')
		expect(upstreamMessageOf('{"errors":[{"message":"cloudflare"}]}')).toBe('cloudflare')
		expect(upstreamMessageOf('{"detail":"fastapi"}')).toBe('fastapi')
		expect(upstreamMessageOf('<html>502 Bad Gateway</html>')).toBeUndefined()
		expect(upstreamMessageOf('{"error":{"message":""}}')).toBeUndefined()
	})

	test('blanks every key of a multi-key channel, every part of a composite key, and key-like strings', () => {
		const keyed = (key: string) => ({ key, baseUrl: '' })
		const multiKey = keyed('alpha-credential-0001\nbravo-credential-0002')
		expect(scrubSecrets('bravo-credential-0002 is over quota; alpha-credential-0001 too', multiKey)).toBe('*** is over quota; *** too')
		expect(scrubSecrets('AKIDEXAMPLE cannot sign in us-east-1 with wJalrXUtnFEMI', keyed('AKIDEXAMPLE|wJalrXUtnFEMI|us-east-1'))).toBe('*** cannot sign in *** with ***')
		expect(scrubSecrets('someone else\'s sk-abcdefghijkl leaked', keyed('mine'))).toBe('someone else\'s *** leaked')
		// Parts too short to be secret (a two-letter region code) leave ordinary words alone.
		expect(scrubSecrets('the cn region is busy', keyed('longsecretvalue|cn'))).toBe('the cn region is busy')
	})

	test('cuts a long message to size', () => {
		expect(scrubSecrets('x'.repeat(2000), { key: 'key-part', baseUrl: '' })).toHaveLength(500)
	})

	test('blanks the upstream\'s URLs, its host name with or without a port, and IP addresses, and keeps the rest of the message', () => {
		const channel = { key: 'sk-channel-key-0123456789', baseUrl: 'https://LLM.internal.example:8443/v1' }
		const scrub = (message: string) => scrubSecrets(message, channel)
		expect(scrub('model "gpt-x" not found at https://llm.internal.example:8443/v1/chat/completions?key=abc, see https://docs.example.com/errors#404'))
			.toBe('model "gpt-x" not found at ***, see ***')
		expect(scrub('upstream llm.internal.example:8443 rejected the request; retry on LLM.INTERNAL.EXAMPLE later.')).toBe('upstream *** rejected the request; retry on *** later.')
		expect(scrub('Post "http://[fd00::5]:11434/api/chat": dial tcp 10.0.3.7:11434: connect: connection refused'))
			.toBe('Post "***": dial tcp ***: connect: connection refused')
		expect(scrub('no route to 10.0.3.7.')).toBe('no route to ***.')
		// A longer name that merely contains the host, and version numbers, are not the host.
		expect(scrub('see docs.llm.internal.example.org and llm.internal.example-old; build 1.2.3.4.5')).toBe('see docs.llm.internal.example.org and llm.internal.example-old; build 1.2.3.4.5')
	})

	test('blanks a masked key as the upstream echoes it, visible ends included', () => {
		expect(scrubSecrets('Incorrect API key provided: sk-proj-************************************abcd. You can find your API key at https://platform.openai.com/account/api-keys.', { key: 'other', baseUrl: '' }))
			.toBe('Incorrect API key provided: ***. You can find your API key at ***.')
	})
})
