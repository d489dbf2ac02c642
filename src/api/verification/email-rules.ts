/** What makes an email address acceptable for an account: format, then the administrator's rules. */
import { and, asc, isNull, ne, sql } from 'drizzle-orm'
import { z } from 'zod'
import type { Store } from '@/db'
import { refused } from '../errors'
import type { OptionStore } from '@/db/stores/options'
import { VERIFICATION_MESSAGES } from './messages'

const EMAIL_MAX_LENGTH = 64

export const emailSchema = z.string({ error: VERIFICATION_MESSAGES.emailRequired })
	.trim()
	.min(1, VERIFICATION_MESSAGES.emailRequired)
	.max(EMAIL_MAX_LENGTH, VERIFICATION_MESSAGES.emailInvalid)
	.pipe(z.email({ error: VERIFICATION_MESSAGES.emailInvalid }))

/** Gmail ignores dots in the local part, so they make aliases there. */
const DOTLESS_DOMAINS = new Set(['gmail.com', 'googlemail.com'])

export function assertEmailAllowed(options: OptionStore, email: string) {
	const separator = email.lastIndexOf('@')
	const local = email.slice(0, separator)
	const domain = email.slice(separator + 1).toLowerCase()
	if (options.get('EmailDomainRestrictionEnabled')) {
		const whitelist = options.get('EmailDomainWhitelist').split(',').map((entry) => entry.trim().toLowerCase()).filter(Boolean)
		if (!whitelist.includes(domain)) throw refused(VERIFICATION_MESSAGES.emailDomainNotAllowed)
	}
	if (options.get('EmailAliasRestrictionEnabled')) {
		if (local.includes('+') || (DOTLESS_DOMAINS.has(domain) && local.includes('.'))) throw refused(VERIFICATION_MESSAGES.emailAliasNotAllowed)
	}
}

/** The live account using the address (compared without case), other than `exceptId`. */
export async function emailOwner(store: Store, email: string, exceptId = 0) {
	const { users } = store.tables
	const [owner] = await store.db.select().from(users)
		.where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, isNull(users.deletedAt), ne(users.id, exceptId)))
		.orderBy(asc(users.id))
		.limit(1)
	return owner
}
