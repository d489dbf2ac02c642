/**
 * Accounts known by another service's id (GitHub, LinuxDO, OpenID Connect, WeChat, Telegram): signing in with
 * one, creating the account on first sight, and binding one to a signed-in user or unbinding it.
 */
import { and, eq, isNull, ne, or } from 'drizzle-orm'
import type { BindingProvider } from '@shared/oauth'
import { USER_MESSAGES, USER_STATUS, USERNAME_MAX_LENGTH } from '@shared/user'
import { rows, type Store, type Tables } from '@/db'
import type { Dependencies } from '@/dependencies'
import { nowSeconds } from '@/lib/clock'
import { randomString } from '@/lib/crypto'
import { refused } from '../errors'
import { isUniqueViolation } from '@/db/unique-violation'
import { createAccount, signUpRewards, usernameTaken } from '../users/repository'
import { assertInvitation, enforceSignUpAddressLimit } from '../users/sign-up-limits'
import type { UserRecord } from '@/db/stores/users'
import { aboutProvider, OAUTH_MESSAGES } from './messages'

type IdentityColumn = 'githubId' | 'linuxDoId' | 'oidcId' | 'wechatId' | 'telegramId'
type EnabledOption = 'GitHubOAuthEnabled' | 'LinuxDOOAuthEnabled' | 'oidc.enabled' | 'WeChatAuthEnabled' | 'TelegramOAuthEnabled'

export type IdentityProvider = {
	label: string
	column: IdentityColumn
	enabledOption: EnabledOption
	/** New accounts are named `<prefix>_<id>` when that fits, else `<prefix>_<random>`. */
	usernamePrefix: string
	defaultDisplayName: string
}

export const PROVIDERS = {
	github: { label: 'GitHub', column: 'githubId', enabledOption: 'GitHubOAuthEnabled', usernamePrefix: 'github', defaultDisplayName: 'GitHub User' },
	linuxdo: { label: 'LinuxDO', column: 'linuxDoId', enabledOption: 'LinuxDOOAuthEnabled', usernamePrefix: 'linuxdo', defaultDisplayName: 'LinuxDO User' },
	oidc: { label: 'OIDC', column: 'oidcId', enabledOption: 'oidc.enabled', usernamePrefix: 'oidc', defaultDisplayName: 'OIDC User' },
	wechat: { label: 'WeChat', column: 'wechatId', enabledOption: 'WeChatAuthEnabled', usernamePrefix: 'wechat', defaultDisplayName: 'WeChat User' },
	telegram: { label: 'Telegram', column: 'telegramId', enabledOption: 'TelegramOAuthEnabled', usernamePrefix: 'tg', defaultDisplayName: 'Telegram User' },
} as const satisfies Record<BindingProvider, IdentityProvider>

/** The provider's id for the person, and a name to show for a new account. */
export type Identity = { id: string; displayName?: string }

const DISPLAY_NAME_MAX_LENGTH = 20
const USERNAME_ATTEMPTS = 5
const USERNAME_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'

export function assertProviderEnabled(dependencies: Dependencies, provider: IdentityProvider) {
	if (!dependencies.options.get(provider.enabledOption)) throw refused(aboutProvider(OAUTH_MESSAGES.disabled, provider.label))
}

async function findByIdentity(store: Store, provider: IdentityProvider, id: string) {
	const { users } = store.tables
	const [user] = await store.db.select().from(users).where(and(eq(users[provider.column], id), isNull(users.deletedAt))).limit(1)
	return user
}

function candidateUsername(provider: IdentityProvider, id: string, attempt: number) {
	const plain = `${provider.usernamePrefix}_${id}`
	if (attempt === 0 && plain.length <= USERNAME_MAX_LENGTH) return plain
	return `${provider.usernamePrefix}_${randomString(USERNAME_MAX_LENGTH - provider.usernamePrefix.length - 1, USERNAME_ALPHABET)}`
}

async function createIdentityUser(dependencies: Dependencies, provider: IdentityProvider, identity: Identity, affCode: string) {
	const { store } = dependencies
	// Nobody knows this password: the account signs in through the provider until its owner sets one.
	const password = await dependencies.passwords.hash(randomString(32))
	const displayName = (identity.displayName?.trim() || provider.defaultDisplayName).slice(0, DISPLAY_NAME_MAX_LENGTH)
	for (let attempt = 0; attempt < USERNAME_ATTEMPTS; attempt++) {
		const username = candidateUsername(provider, identity.id, attempt)
		if (await usernameTaken(store, username)) continue
		try {
			return await createAccount(store, { username, password, passwordSet: false, displayName, [provider.column]: identity.id }, affCode, signUpRewards(dependencies))
		} catch (error) {
			if (!isUniqueViolation(error)) throw error
			// A simultaneous first sign-in with the same identity won the race: use its account.
			const winner = await findByIdentity(store, provider, identity.id)
			if (winner) return winner
		}
	}
	throw refused(OAUTH_MESSAGES.usernameUnavailable)
}

/**
 * The account of this identity, created when new registrations are open: a new account passes the
 * invitation requirement and counts against `clientAddress` as a password registration does.
 */
export async function signInWithIdentity(dependencies: Dependencies, provider: IdentityProvider, identity: Identity, clientAddress: string, affCode = ''): Promise<UserRecord> {
	const existing = await findByIdentity(dependencies.store, provider, identity.id)
	if (existing) {
		if (existing.status !== USER_STATUS.enabled) throw refused(OAUTH_MESSAGES.banned)
		return existing
	}
	if (!dependencies.options.get('RegisterEnabled')) throw refused(USER_MESSAGES.registerDisabled)
	await assertInvitation(dependencies, affCode)
	await enforceSignUpAddressLimit(dependencies, clientAddress)
	return createIdentityUser(dependencies, provider, identity, affCode)
}

export async function bindIdentity(dependencies: Dependencies, provider: IdentityProvider, user: UserRecord, id: string) {
	const owner = await findByIdentity(dependencies.store, provider, id)
	if (owner && owner.id !== user.id) throw refused(aboutProvider(OAUTH_MESSAGES.alreadyBound, provider.label))
	const { users } = dependencies.store.tables
	try {
		await dependencies.store.db.update(users).set({ [provider.column]: id }).where(eq(users.id, user.id))
	} catch (error) {
		// Another user bound the same account between the check above and this write.
		if (isUniqueViolation(error)) throw refused(aboutProvider(OAUTH_MESSAGES.alreadyBound, provider.label))
		throw error
	}
}

/** Records the sign-in and returns the session token for the cookie, as password login does. */
export async function startSession(dependencies: Dependencies, user: UserRecord): Promise<string> {
	const { users } = dependencies.store.tables
	await dependencies.store.db.update(users).set({ lastLoginTime: nowSeconds() }).where(eq(users.id, user.id))
	return dependencies.sessions.sign(user.id, user.sessionVersion)
}

const IDENTITY_COLUMNS = Object.values(PROVIDERS).map((provider) => provider.column)

/**
 * The rows whose binding to the provider may be cleared: bound to it, and with another way to
 * sign in: a password its owner chose (not the random one of an account created through a
 * provider) or another binding. Cleared by one conditional write, so two simultaneous unbinds
 * cannot both pass the check.
 */
export function unbindableUser(users: Tables['users'], provider: IdentityProvider, userId: number) {
	const others = IDENTITY_COLUMNS.filter((column) => column !== provider.column).map((column) => ne(users[column], ''))
	return and(eq(users.id, userId), ne(users[provider.column], ''), or(eq(users.passwordSet, true), ...others))
}

/** Why the conditional write cleared nothing: the provider is not bound, or it is the last way in. */
export async function unbindRefusal(store: Store, provider: IdentityProvider, userId: number) {
	const { users } = store.tables
	const [user] = await store.db.select().from(users).where(eq(users.id, userId)).limit(1)
	if (!user?.[provider.column]) return refused(aboutProvider(OAUTH_MESSAGES.notBound, provider.label))
	return refused(aboutProvider(OAUTH_MESSAGES.lastSignIn, provider.label))
}

/** Clears the provider's id from the account unless it is the account's last way to sign in. */
export async function unbindIdentity(dependencies: Dependencies, provider: IdentityProvider, userId: number) {
	const { store } = dependencies
	const { users } = store.tables
	const cleared = await store.db.update(users).set({ [provider.column]: '' }).where(unbindableUser(users, provider, userId)).returning({ id: users.id })
	if (cleared.length === 0) throw await unbindRefusal(store, provider, userId)
}
