/** The signed-in user's own account, and getting one: registration, login, self-service. */
import { and, eq, gte, isNull, sql } from 'drizzle-orm'
import { z } from 'zod'
import { API_MESSAGES } from '@shared/api'
import { LOG_TYPE } from '@shared/log'
import { DEFAULT_ROOT_PASSWORD, DEFAULT_ROOT_USERNAME, ROLE, USER_MESSAGES, USER_STATUS, type loginSchema, type registerSchema, type updateSelfSchema } from '@shared/user'
import { rows } from '@/db'
import type { Dependencies } from '@/dependencies'
import { applyCredit } from '@/billing/ledger'
import { isCallable } from '@/billing/price'
import { nowSeconds } from '@/lib/clock'
import { randomString } from '@/lib/crypto'
import { ApiError, badRequest, refused } from '../errors'
import { emailOwner } from '../verification/email-rules'
import { VERIFICATION_MESSAGES } from '../verification/messages'
import { consumeCode, VERIFICATION_PURPOSE } from '../verification/service'
import { enforceAccountLimits, enforceAddressLimit } from './login-limits'
import { assertInvitation, enforceSignUpAddressLimit } from './sign-up-limits'
import { takeStartUpTurn } from '@/db/start-up-lock'
import { isUniqueViolation } from '@/db/unique-violation'
import { assertSignInChangeable } from './demo-site'
import { createAccount, endSessions, newAffCode, signUpRewards, usernameTaken } from './repository'
import type { UserRecord } from '@/db/stores/users'
import { withValues } from '@shared/messages'
import { logLine } from '@shared/messages/logs'

const REGISTER_CODE_ATTEMPTS = { limit: 5, windowSeconds: 180 } as const

export async function register(dependencies: Dependencies, input: z.infer<typeof registerSchema>, clientAddress: string) {
	const { options, store, passwords } = dependencies
	if (!options.get('RegisterEnabled')) throw refused(USER_MESSAGES.registerDisabled)
	if (!options.get('PasswordRegisterEnabled')) throw refused(USER_MESSAGES.passwordRegisterDisabled)
	await assertInvitation(dependencies, input.aff_code)
	if (await usernameTaken(store, input.username)) throw refused(USER_MESSAGES.usernameTaken)
	if (options.get('EmailVerificationEnabled')) {
		if (!input.email || !input.verification_code) throw refused(USER_MESSAGES.emailVerificationRequired)
		// A six-digit code lives three minutes: a few guesses per address, not a million.
		const { limit, windowSeconds } = REGISTER_CODE_ATTEMPTS
		if (!await dependencies.rateLimiter.hit(`register:email:${input.email.toLowerCase()}`, limit, windowSeconds)) throw new ApiError(API_MESSAGES.tooManyRequests, 429)
		if (await emailOwner(store, input.email)) throw refused(VERIFICATION_MESSAGES.emailInUse)
		if (!await consumeCode(dependencies, VERIFICATION_PURPOSE.register, input.email, input.verification_code)) throw refused(USER_MESSAGES.verificationCodeWrong)
	}
	await enforceSignUpAddressLimit(dependencies, clientAddress)
	const password = await passwords.hash(input.password)
	try {
		const created = await createAccount(store, {
			username: input.username,
			password,
			displayName: input.username,
			email: options.get('EmailVerificationEnabled') ? input.email : '',
		}, input.aff_code, signUpRewards(dependencies))
		return { id: created.id }
	} catch (error) {
		if (isUniqueViolation(error)) throw refused(USER_MESSAGES.usernameTaken)
		throw error
	}
}

export async function login(dependencies: Dependencies, input: z.infer<typeof loginSchema>, clientAddress: string) {
	const { options, store, passwords, rateLimiter } = dependencies
	if (!options.get('PasswordLoginEnabled')) throw refused(USER_MESSAGES.passwordLoginDisabled)
	await enforceAddressLimit(rateLimiter, clientAddress)
	const { users } = store.tables
	const [user] = await store.db.select().from(users)
		.where(and(isNull(users.deletedAt), input.username.includes('@') ? eq(users.email, input.username) : eq(users.username, input.username)))
		.limit(1)
	await enforceAccountLimits(rateLimiter, user ? `id:${user.id}` : `name:${input.username.toLowerCase()}`, clientAddress)
	// Hash even for an unknown user so the answer time does not reveal which usernames exist.
	const valid = await passwords.verify(input.password, user?.password ?? await unknownUserHash())
	if (!user || !valid || user.status !== USER_STATUS.enabled) throw refused(USER_MESSAGES.wrongCredentials)
	await store.db.update(users).set({ lastLoginTime: nowSeconds() }).where(eq(users.id, user.id))
	return { user, sessionToken: await dependencies.sessions.sign(user.id, user.sessionVersion) }
}

/** A hash nobody's password matches, made on first need (argon2 takes 19 MiB while hashing). */
let unknownUser: Promise<string> | undefined
const unknownUserHash = () => (unknownUser ??= Bun.password.hash(randomString(24), { algorithm: 'argon2id', memoryCost: 19456, timeCost: 2 }))

export async function logout(dependencies: Dependencies, userId: number) {
	await endSessions(dependencies.store, userId)
}

/**
 * Changes the caller's own profile. A new password ends every other session; the caller gets a
 * fresh session token so the tab they are using stays signed in.
 */
export async function updateSelf(dependencies: Dependencies, user: UserRecord, input: z.infer<typeof updateSelfSchema>) {
	const { store, passwords } = dependencies
	const { users } = store.tables
	const changes: Partial<UserRecord> = {}
	if (input.username !== undefined && input.username !== user.username) {
		if (await usernameTaken(store, input.username, user.id)) throw refused(USER_MESSAGES.usernameTaken)
		changes.username = input.username
	}
	if (input.display_name !== undefined) changes.displayName = input.display_name
	assertSignInChangeable(dependencies.options, user, { username: changes.username !== undefined, password: Boolean(input.password) })
	if (input.password) {
		changes.password = await passwords.hash(input.password)
		changes.passwordChangeRequired = false
		changes.passwordSet = true
	}
	if (Object.keys(changes).length === 0) return { user, sessionToken: undefined }
	try {
		const [updated] = await store.db.update(users).set(changes).where(eq(users.id, user.id)).returning()
		if (!input.password) return { user: updated!, sessionToken: undefined }
		const version = await endSessions(store, user.id)
		return { user: { ...updated!, sessionVersion: version! }, sessionToken: await dependencies.sessions.sign(user.id, version!) }
	} catch (error) {
		if (isUniqueViolation(error)) throw refused(USER_MESSAGES.usernameTaken)
		throw error
	}
}

/** `confirmation` is the account name as the user typed it; anything else deletes nothing. */
export async function deleteSelf(dependencies: Dependencies, user: UserRecord, confirmation: string) {
	if (user.role >= ROLE.root) throw refused(USER_MESSAGES.rootProtected)
	if (confirmation !== user.username) throw badRequest(USER_MESSAGES.deleteConfirm)
	const { users } = dependencies.store.tables
	await dependencies.store.db.update(users)
		.set({ deletedAt: nowSeconds(), sessionVersion: sql`${users.sessionVersion} + 1`, accessTokenHash: null, accessTokenCipher: null })
		.where(eq(users.id, user.id))
	dependencies.changes.notify('users')
}

/** A new system access token; the old one stops working. */
export async function generateAccessToken(dependencies: Dependencies, userId: number): Promise<string> {
	const token = randomString(32)
	const { users } = dependencies.store.tables
	await dependencies.store.db.update(users)
		.set({ accessTokenHash: dependencies.secrets.digest(token), accessTokenCipher: dependencies.secrets.encrypt(token) })
		.where(eq(users.id, userId))
	return token
}

/** Moves pending invitation income to the balance: one transaction with its log row. */
export async function transferAffiliateQuota(dependencies: Dependencies, userId: number, quota: number) {
	const minimum = dependencies.options.get('QuotaPerUnit')
	if (quota < minimum) throw refused(withValues(USER_MESSAGES.transferMinimum, { minimum }))
	return dependencies.store.transaction(function* (tx, tables) {
		const { users } = tables
		const [taken] = yield* rows(tx.update(users)
			.set({ affQuota: sql`${users.affQuota} - ${quota}` })
			.where(and(eq(users.id, userId), gte(users.affQuota, quota)))
			.returning({ id: users.id }))
		if (!taken) throw refused(USER_MESSAGES.transferInsufficient)
		return yield* applyCredit(tx, tables, { userId, amount: quota, type: LOG_TYPE.system, ...logLine('invitation.transferred', { quota }) })
	})
}

/** Model names the user's group can reach through enabled channels. */
export async function userModels(dependencies: Dependencies, user: UserRecord): Promise<string[]> {
	const { abilities } = dependencies.store.tables
	const found = await dependencies.store.db.selectDistinct({ model: abilities.model }).from(abilities)
		.where(and(eq(abilities.group, user.group), eq(abilities.enabled, true)))
	// Only what a call can use: an unpriced model would fail with "has no price set" (outside self-use).
	return found.map((row) => row.model).filter((model) => isCallable(dependencies.options, model)).sort()
}

/**
 * First start on an empty database: the super admin root / 123456, asked to change it at login.
 * Nodes starting together on that database take turns (`takeStartUpTurn`); the first makes root.
 */
export async function ensureRootUser(dependencies: Dependencies) {
	const { store, passwords, logger } = dependencies
	const { users } = store.tables
	const [existing] = await store.db.select({ id: users.id }).from(users).limit(1)
	if (existing) return
	const password = await passwords.hash(DEFAULT_ROOT_PASSWORD)
	const created = await store.transaction(function* (tx, tables) {
		yield* takeStartUpTurn(store.dialect)
		const [someone] = yield* rows(tx.select({ id: tables.users.id }).from(tables.users).limit(1))
		if (someone) return false
		const [root] = yield* rows(tx.insert(tables.users).values({
			username: DEFAULT_ROOT_USERNAME, password, displayName: 'Root User', role: ROLE.root, affCode: newAffCode(), passwordChangeRequired: true,
		}).returning({ id: tables.users.id }))
		yield* applyCredit(tx, tables, { userId: root!.id, amount: ROOT_INITIAL_QUOTA, type: LOG_TYPE.system, ...logLine('root.initial_quota') })
		return true
	})
	if (created) logger.warn('created the super admin "root" with the default password 123456: sign in and change it now')
}

export const ROOT_INITIAL_QUOTA = 100_000_000
