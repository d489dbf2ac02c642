import { describe, expect, test } from 'bun:test'
import { scrubSecrets, upstreamMessageOf } from '@/relay/pipeline/upstream-message'

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
		const multiKey = 'alpha-credential-0001\nbravo-credential-0002'
		expect(scrubSecrets('bravo-credential-0002 is over quota; alpha-credential-0001 too', multiKey)).toBe('*** is over quota; *** too')
		expect(scrubSecrets('AKIDEXAMPLE cannot sign in us-east-1 with wJalrXUtnFEMI', 'AKIDEXAMPLE|wJalrXUtnFEMI|us-east-1')).toBe('*** cannot sign in *** with ***')
		expect(scrubSecrets('someone else\'s sk-abcdefghijkl leaked', 'mine')).toBe('someone else\'s *** leaked')
		// Parts too short to be secret (a two-letter region code) leave ordinary words alone.
		expect(scrubSecrets('the cn region is busy', 'longsecretvalue|cn')).toBe('the cn region is busy')
	})

	test('cuts a long message to size', () => {
		expect(scrubSecrets('x'.repeat(2000), 'key-part')).toHaveLength(500)
	})
})
