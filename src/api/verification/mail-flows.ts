/**
 * Everything that starts with a mail: the code that proves an address before registration or
 * binding, and the password-reset link. Codes and tokens live only as digests (service.ts) and
 * in the message itself.
 */
import { eq } from 'drizzle-orm'
import { API_MESSAGES } from '@shared/api'
import { USER_MESSAGES } from '@shared/user'
import type { Dependencies } from '@/dependencies'
import { randomDigits, randomString } from '@/lib/crypto'
import { escapeHtml, MAILER_MESSAGES, MailerError, type MailMessage } from '@/lib/mailer'
import { ApiError, refused } from '../errors'
import { endSessions } from '../users/repository'
import type { UserRecord } from '@/db/stores/users'
import { assertEmailAllowed, emailOwner } from './email-rules'
import { VERIFICATION_MESSAGES } from './messages'
import { consumeCode, storeCode, VERIFICATION_PURPOSE } from './service'
import { assertSignInChangeable } from '../users/demo-site'

/** A verification code is valid for 3 minutes (docs/specification/accounts-and-settings.md#email-codes-and-password-reset). */
const EMAIL_CODE_LIFETIME_SECONDS = 3 * 60
const RESET_TOKEN_LIFETIME_SECONDS = 15 * 60
const RESET_PASSWORD_LENGTH = 16

/** One mail per address every 30 s matches the console's resend countdown (docs/specification/accounts-and-settings.md#email-codes-and-password-reset). */
const MAIL_LIMITS = {
	perEmail: { limit: 1, windowSeconds: 30 },
	perAddress: { limit: 10, windowSeconds: 600 },
} as const
const RESET_CONFIRM_LIMITS = { perAddress: { limit: 20, windowSeconds: 600 } } as const

async function enforceLimit(dependencies: Dependencies, bucket: string, { limit, windowSeconds }: { limit: number; windowSeconds: number }) {
	if (!await dependencies.rateLimiter.hit(bucket, limit, windowSeconds)) throw new ApiError(API_MESSAGES.tooManyRequests, 429)
}

async function enforceMailLimits(dependencies: Dependencies, kind: string, email: string, clientAddress: string) {
	await enforceLimit(dependencies, `${kind}:address:${clientAddress}`, MAIL_LIMITS.perAddress)
	await enforceLimit(dependencies, `${kind}:email:${email.toLowerCase()}`, MAIL_LIMITS.perEmail)
}

async function deliver(dependencies: Dependencies, message: MailMessage) {
	try {
		await dependencies.mailer.send(message)
	} catch (error) {
		if (error instanceof MailerError) throw refused(error.reason)
		dependencies.logger.warn('the mailer failed', { reason: (error as Error).name })
		throw refused(MAILER_MESSAGES.sendFailed)
	}
}

function systemName(dependencies: Dependencies) {
	return dependencies.options.get('SystemName') || 'Ferry'
}

/** A bind code belongs to the account that asked for it as well as to the address. */
const bindTarget = (userId: number, email: string) => `${userId}:${email}`

/**
 * Mails a 6-digit code. Without `bindingUser` it is a registration code and needs an address no
 * account uses; with one it binds the address to that user and needs an address no other account uses.
 */
export async function sendEmailCode(dependencies: Dependencies, email: string, bindingUser: UserRecord | undefined, clientAddress: string) {
	assertEmailAllowed(dependencies.options, email)
	await enforceMailLimits(dependencies, 'verification', email, clientAddress)
	if (await emailOwner(dependencies.store, email, bindingUser?.id)) throw refused(VERIFICATION_MESSAGES.emailInUse)
	const code = randomDigits(6)
	if (bindingUser) {
		await storeCode(dependencies, VERIFICATION_PURPOSE.bindEmail, bindTarget(bindingUser.id, email), code, EMAIL_CODE_LIFETIME_SECONDS)
	} else {
		await storeCode(dependencies, VERIFICATION_PURPOSE.register, email, code, EMAIL_CODE_LIFETIME_SECONDS)
	}
	const name = escapeHtml(systemName(dependencies))
	await deliver(dependencies, {
		to: email,
		subject: `${systemName(dependencies)} email verification`,
		html: `<p>Your ${name} verification code is:</p><p style="font-size:24px;letter-spacing:4px"><strong>${code}</strong></p>`
			+ `<p>It is valid for ${EMAIL_CODE_LIFETIME_SECONDS / 60} minutes. If you did not ask for it, ignore this email.</p>`,
	})
}

/**
 * Refusing an unknown address here reveals nothing new: `GET /api/verification` must already say
 * "email already in use", so a vague answer would only hide a typo from the person who made it.
 * Both calls are rate limited per address and per email.
 */
export async function sendResetLink(dependencies: Dependencies, email: string, clientAddress: string) {
	await enforceMailLimits(dependencies, 'reset', email, clientAddress)
	const serverAddress = dependencies.options.get('ServerAddress')
	if (!serverAddress) throw refused(VERIFICATION_MESSAGES.serverAddressMissing)
	const owner = await emailOwner(dependencies.store, email)
	if (!owner) throw refused(VERIFICATION_MESSAGES.emailNotRegistered)
	const token = randomString(32)
	await storeCode(dependencies, VERIFICATION_PURPOSE.resetPassword, email, token, RESET_TOKEN_LIFETIME_SECONDS)
	const link = `${serverAddress}/user/reset?email=${encodeURIComponent(email)}&token=${encodeURIComponent(token)}`
	const name = escapeHtml(systemName(dependencies))
	await deliver(dependencies, {
		to: owner.email,
		subject: `${systemName(dependencies)} password reset`,
		html: `<p>Someone asked to reset the password of your ${name} account.</p>`
			+ `<p><a href="${escapeHtml(link)}">Reset the password</a></p>`
			+ `<p>If the link does not open, copy this address into your browser:<br>${escapeHtml(link)}</p>`
			+ `<p>The link works once, for ${RESET_TOKEN_LIFETIME_SECONDS / 60} minutes. If you did not ask for it, ignore this email.</p>`,
	})
}

/** Uses the reset token; the account gets a random password, returned once, and every session ends. */
export async function resetPassword(dependencies: Dependencies, email: string, token: string, clientAddress: string): Promise<string> {
	await enforceLimit(dependencies, `reset-confirm:address:${clientAddress}`, RESET_CONFIRM_LIMITS.perAddress)
	if (!await consumeCode(dependencies, VERIFICATION_PURPOSE.resetPassword, email, token)) throw refused(VERIFICATION_MESSAGES.resetLinkInvalid)
	const owner = await emailOwner(dependencies.store, email)
	if (!owner) throw refused(VERIFICATION_MESSAGES.resetLinkInvalid)
	assertSignInChangeable(dependencies.options, owner, { username: false, password: true })
	const password = randomString(RESET_PASSWORD_LENGTH)
	const { users } = dependencies.store.tables
	await dependencies.store.db.update(users)
		.set({ password: await dependencies.passwords.hash(password), passwordChangeRequired: false, passwordSet: true })
		.where(eq(users.id, owner.id))
	await endSessions(dependencies.store, owner.id)
	return password
}

const BIND_EMAIL_LIMITS = { perUser: { limit: 10, windowSeconds: 600 } } as const

/** Sets the user's email once they prove it with a bind code. */
export async function bindEmail(dependencies: Dependencies, user: UserRecord, email: string, code: string) {
	await enforceLimit(dependencies, `bind-email:user:${user.id}`, BIND_EMAIL_LIMITS.perUser)
	if (await emailOwner(dependencies.store, email, user.id)) throw refused(VERIFICATION_MESSAGES.emailInUse)
	if (!await consumeCode(dependencies, VERIFICATION_PURPOSE.bindEmail, bindTarget(user.id, email), code)) {
		throw refused(USER_MESSAGES.verificationCodeWrong)
	}
	const { users } = dependencies.store.tables
	await dependencies.store.db.update(users).set({ email }).where(eq(users.id, user.id))
}
