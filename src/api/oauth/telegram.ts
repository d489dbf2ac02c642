/**
 * Telegram Login Widget data, checked by Telegram's rule: the received fields except `hash`,
 * as `key=value` lines sorted by key, signed with HMAC-SHA256 keyed by SHA-256(bot token).
 *
 * The signature alone would let anyone who ever saw a login URL (browser history, a proxy log)
 * sign in with it as long as it is accepted, so the data must be fresh (`auth_date` within a few
 * minutes) and each signed payload works once.
 */
import { and, count, eq, lt } from 'drizzle-orm'
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import type { Dependencies } from '@/dependencies'
import { nowSeconds } from '@/lib/clock'
import { badRequest, refused } from '../errors'
import type { Identity } from './identities'
import { aboutProvider, OAUTH_MESSAGES } from './messages'

const LABEL = 'Telegram'
/** The widget hands over data signed moments ago; the page forwards it at once. */
export const TELEGRAM_MAX_AGE_SECONDS = 5 * 60
/** How far ahead of this server's clock Telegram's may run. */
export const TELEGRAM_CLOCK_SKEW_SECONDS = 60
const USED_PURPOSE = 'telegram_login'
/** `lang` is the console's own addition (docs/specification/accounts-and-settings.md#other-services-github-linuxdo-wechat-telegram), not part of what Telegram signed. */
const UNSIGNED_FIELDS = new Set(['hash', 'lang'])

function telegramDataCheckString(fields: Map<string, string>): string {
	return [...fields]
		.filter(([key]) => !UNSIGNED_FIELDS.has(key))
		.sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
		.map(([key, value]) => `${key}=${value}`)
		.join('\n')
}

function telegramHash(botToken: string, dataCheckString: string): string {
	return createHmac('sha256', createHash('sha256').update(botToken).digest()).update(dataCheckString).digest('hex')
}

/**
 * The account the widget data names, for sign-in and for binding alike. Refuses data that is
 * forged, stale, dated in the future, or was used before.
 */
export async function telegramIdentity(dependencies: Dependencies, search: URLSearchParams): Promise<Identity> {
	const botToken = dependencies.options.get('TelegramBotToken')
	if (!botToken) throw refused(aboutProvider(OAUTH_MESSAGES.notConfigured, LABEL))
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
	if (age > TELEGRAM_MAX_AGE_SECONDS || age < -TELEGRAM_CLOCK_SKEW_SECONDS) throw refused(OAUTH_MESSAGES.telegramExpired)
	await useOnce(dependencies, hash, Number(authDate))
	const fullName = [fields.get('first_name'), fields.get('last_name')].filter(Boolean).join(' ')
	return { id, displayName: fullName || fields.get('username') }
}

/**
 * Marks the signed payload (named by its hash) as used, in the database so that every node sees
 * it. Without a unique index, the row is inserted first and then counted: whichever of two
 * concurrent uses commits second counts two rows and is refused, so at most one use succeeds (a
 * concurrent replay may also refuse the genuine one, which fails safe). Rows outlive the
 * acceptance window and are swept after it, so the set stays as small as the window's logins.
 */
async function useOnce(dependencies: Dependencies, hash: string, authDate: number) {
	const { store, secrets } = dependencies
	const { verifications } = store.tables
	const digest = secrets.digest(`${USED_PURPOSE}:${hash}`)
	const matching = and(eq(verifications.purpose, USED_PURPOSE), eq(verifications.target, digest))
	await store.db.delete(verifications).where(and(eq(verifications.purpose, USED_PURPOSE), lt(verifications.expiresAt, nowSeconds())))
	await store.db.insert(verifications).values({
		purpose: USED_PURPOSE,
		target: digest,
		codeHash: digest,
		expiresAt: authDate + TELEGRAM_MAX_AGE_SECONDS + TELEGRAM_CLOCK_SKEW_SECONDS,
	})
	const [uses] = await store.db.select({ total: count() }).from(verifications).where(matching)
	if (Number(uses?.total) > 1) throw refused(OAUTH_MESSAGES.telegramUsed)
}
