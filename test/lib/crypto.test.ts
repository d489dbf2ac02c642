import { describe, expect, test } from 'bun:test'
import { createSecretBox, randomString } from '@/lib/crypto'

describe('the secret box', () => {
	const box = createSecretBox('crypto-secret-for-tests-0123456789abcdef', 'session-secret-for-tests-0123456789abcd')

	test('decrypts what it encrypted, with a fresh nonce every time', () => {
		const first = box.encrypt('sk-upstream-key')
		expect(box.decrypt(first)).toBe('sk-upstream-key')
		expect(box.encrypt('sk-upstream-key')).not.toBe(first)
		expect(first).not.toContain('sk-upstream-key')
	})

	test('refuses a tampered ciphertext and one made with another secret', () => {
		const ciphertext = box.encrypt('value')
		const parts = ciphertext.split('.')
		const body = Buffer.from(parts[2]!, 'base64url')
		body[0] = body[0]! ^ 1
		parts[2] = body.toString('base64url')
		expect(() => box.decrypt(parts.join('.'))).toThrow()
		const other = createSecretBox('another-crypto-secret-0123456789abcdefgh', 'session-secret-for-tests-0123456789abcd')
		expect(() => other.decrypt(ciphertext)).toThrow()
	})

	test('digests deterministically for lookups and signs verifiably', () => {
		expect(box.digest('token')).toBe(box.digest('token'))
		expect(box.digest('token')).not.toBe(box.digest('token2'))
		const signature = box.sign('message')
		expect(box.verify('message', signature)).toBe(true)
		expect(box.verify('message!', signature)).toBe(false)
		expect(box.verify('message', `${signature}x`)).toBe(false)
	})

	test('random strings use the whole alphabet and the requested length', () => {
		const text = randomString(2000)
		expect(text).toHaveLength(2000)
		expect(new Set(text).size).toBe(62)
	})
})
