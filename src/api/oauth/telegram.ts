/**
 * Telegram Login Widget data, checked by Telegram's rule: the received fields except `hash`,
 * as `key=value` lines sorted by key, signed with HMAC-SHA256 keyed by SHA-256(bot token).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import type { Dependencies } from '@/dependencies'
import { nowSeconds } from '@/lib/clock'
import { badRequest, refused } from '../errors'
import type { Identity } from './identities'
import { OAUTH_MESSAGES } from './messages'

const LABEL = 'Telegram'
export const TELEGRAM_MAX_AGE_SECONDS = 24 * 3600
const CLOCK_SKEW_SECONDS = 5 * 60
/** `lang` is the console's own addition (seed 000 §7), not part of what Telegram signed. */
const UNSIGNED_FIELDS = new Set(['hash', 'lang'])

export function telegramDataCheckString(fields: Map<string, string>): string {
	return [...fields]
		.filter(([key]) => !UNSIGNED_FIELDS.has(key))
		.sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
		.map(([key, value]) => `${key}=${value}`)
		.join('\n')
}

export function telegramHash(botToken: string, dataCheckString: string): string {
	return createHmac('sha256', createHash('sha256').update(botToken).digest()).update(dataCheckString).digest('hex')
}

export function telegramIdentity(dependencies: Dependencies, search: URLSearchParams): Identity {
	const botToken = dependencies.options.get('TelegramBotToken')
	if (!botToken) throw refused(OAUTH_MESSAGES.notConfigured(LABEL))
	const fields = new Map<string, string>()
	for (const [key, value] of search) {
		if (fields.has(key)) throw badRequest(OAUTH_MESSAGES.telegramInvalid)
		fields.set(key, value)
	}
	const hash = fields.get('hash')?.toLowerCase() ?? ''
	const id = fields.get('id') ?? ''
	const authDate = fields.get('auth_date') ?? ''
	if (!/^[0-9a-f]{64}$/.test(hash) || !/^\d{1,20}$/.test(id) || !/^\d{1,12}$/.test(authDate)) throw refused(OAUTH_MESSAGES.telegramInvalid)
	const expected = Buffer.from(telegramHash(botToken, telegramDataCheckString(fields)))
	if (!timingSafeEqual(expected, Buffer.from(hash))) throw refused(OAUTH_MESSAGES.telegramInvalid)
	const age = nowSeconds() - Number(authDate)
	if (age > TELEGRAM_MAX_AGE_SECONDS || age < -CLOCK_SKEW_SECONDS) throw refused(OAUTH_MESSAGES.telegramExpired)
	const fullName = [fields.get('first_name'), fields.get('last_name')].filter(Boolean).join(' ')
	return { id, displayName: fullName || fields.get('username') }
}
