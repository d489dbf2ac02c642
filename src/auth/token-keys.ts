/**
 * Token keys at rest (docs/operations/security.md#secrets): an HMAC digest for the relay's lookup and an encrypted copy the
 * owner can read back; never the key in the clear. A key is 48 letters and digits; clients present
 * it as `sk-<key>`, optionally followed by `-<channel id>` to pin a channel (admins only).
 */
import { TOKEN_KEY_LENGTH, TOKEN_KEY_PREFIX } from '@shared/token'
import { randomString, type SecretBox } from '@/lib/crypto'

export const newTokenKey = () => randomString(TOKEN_KEY_LENGTH)

/** The key proper and the text of a pinned channel id (undefined when none was given). */
export function splitTokenKey(presented: string): { key: string; channel: string | undefined } {
	const text = presented.trim()
	const bare = text.startsWith(TOKEN_KEY_PREFIX) ? text.slice(TOKEN_KEY_PREFIX.length) : text
	const dash = bare.indexOf('-')
	return dash < 0 ? { key: bare, channel: undefined } : { key: bare.slice(0, dash), channel: bare.slice(dash + 1) }
}

/**
 * What `tokens.key_hash` holds for a presented key, with or without `sk-` and a channel suffix.
 * The relay looks tokens up by exactly this.
 */
export function tokenKeyDigest(secrets: SecretBox, presented: string): string {
	return secrets.digest(splitTokenKey(presented).key)
}

export function sealTokenKey(secrets: SecretBox, key: string) {
	return { keyHash: secrets.digest(key), keyCipher: secrets.encrypt(key) }
}

export const displayTokenKey = (key: string) => `${TOKEN_KEY_PREFIX}${key}`
