/**
 * Secrets at rest (docs/operations/security.md#secrets): AES-256-GCM for values their owner may read again (channel keys,
 * API token keys, access tokens) and HMAC-SHA256 for looking a presented secret up without
 * storing it in the clear.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'

const CIPHER_VERSION = 'v1'

export interface SecretBox {
	encrypt(plaintext: string): string
	decrypt(ciphertext: string): string
	/** Deterministic keyed digest for lookups (token keys, access tokens). */
	digest(value: string): string
	/** HMAC signature of a message with the session key. */
	sign(message: string): string
	verify(message: string, signature: string): boolean
}

/** The HMAC key of everything signed with the session secret: console sessions and OAuth states. */
export const sessionSigningKey = (sessionSecret: string): Buffer => createHash('sha256').update(`ferry:session:${sessionSecret}`).digest()

export function createSecretBox(cryptoSecret: string, sessionSecret: string): SecretBox {
	const encryptionKey = createHash('sha256').update(`ferry:encryption:${cryptoSecret}`).digest()
	const lookupKey = createHash('sha256').update(`ferry:lookup:${cryptoSecret}`).digest()
	const signingKey = sessionSigningKey(sessionSecret)
	const sign = (message: string) => createHmac('sha256', signingKey).update(message).digest('base64url')
	return {
		encrypt(plaintext) {
			const iv = randomBytes(12)
			const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv)
			const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
			return [CIPHER_VERSION, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.')
		},
		decrypt(ciphertext) {
			const [version, iv, body, tag] = ciphertext.split('.')
			if (version !== CIPHER_VERSION || !iv || body === undefined || !tag) throw new Error('unreadable ciphertext')
			const decipher = createDecipheriv('aes-256-gcm', encryptionKey, Buffer.from(iv, 'base64url'))
			decipher.setAuthTag(Buffer.from(tag, 'base64url'))
			return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')
		},
		digest: (value) => createHmac('sha256', lookupKey).update(value).digest('hex'),
		sign,
		verify(message, signature) {
			const expected = Buffer.from(sign(message))
			const presented = Buffer.from(signature)
			return expected.length === presented.length && timingSafeEqual(expected, presented)
		},
	}
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** Uniformly random string from an alphabet, using the system's CSPRNG. */
export function randomString(length: number, alphabet = ALPHANUMERIC): string {
	let text = ''
	for (let index = 0; index < length; index++) text += alphabet[randomInt(alphabet.length)]
	return text
}

export function randomDigits(length: number): string {
	return randomString(length, '0123456789')
}

/**
 * Request ids that sort by time (a base-36 millisecond clock, then random letters): indexes on
 * them grow at one end instead of being written at random pages, which keeps billing writes cheap.
 */
export function newRequestId(): string {
	return `${Date.now().toString(36).padStart(9, '0')}${randomString(15)}`
}
