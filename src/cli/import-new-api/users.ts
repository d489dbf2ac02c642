/**
 * new-api's `users` (model/user.go; one-api's has the same core): ids, names, roles, status, groups,
 * balances, invitation fields and sign-in bindings come over as they are. Password hashes are
 * new-api's bcrypt (`$2a$…`), which Ferry's password check accepts unchanged; the system access
 * token, stored in the clear there, is stored here as Ferry stores it (a digest and a ciphertext).
 *
 * Balances are not booked here: `balances.ts` turns quota and used quota into the ledger's opening
 * entries.
 */
import { MAX_QUOTA } from '@shared/quota-limit'
import { ROLE, USER_STATUS, USERNAME_MAX_LENGTH } from '@shared/user'
import type { Tables } from '@/db'
import { randomString, type SecretBox } from '@/lib/crypto'
import type { SourceFlavor } from './channel-types'
import type { ReportSection } from './report'
import type { SourceRow } from './source'
import { deletedAt, integer, outOfRange, text, unixSeconds } from './values'

export type UserRow = Tables['users']['$inferInsert'] & { id: number; quota: number; usedQuota: number }

/** Ferry's invitation codes are this long; new ones are made for users who had none. */
const AFF_CODE_LENGTH = 8
const KNOWN_ROLES = new Set<number>(Object.values(ROLE))
const KNOWN_STATUSES = new Set<number>(Object.values(USER_STATUS))
/** one-api's status of a deleted account. */
const ONE_API_DELETED = 3

/** Sign-in bindings Ferry has: each may belong to one live account only. */
const BINDINGS = [
	{ column: 'github_id', field: 'githubId', name: 'GitHub' },
	{ column: 'wechat_id', field: 'wechatId', name: 'WeChat' },
	{ column: 'telegram_id', field: 'telegramId', name: 'Telegram' },
	{ column: 'linux_do_id', field: 'linuxDoId', name: 'LinuxDO' },
	{ column: 'oidc_id', field: 'oidcId', name: 'OIDC' },
] as const

/** Columns new-api or one-api have that Ferry has no place for, with what that means. */
const NOT_CARRIED = [
	{ column: 'discord_id', reason: 'Discord binding not carried (Ferry has no Discord sign-in): these users sign in with their password' },
	{ column: 'lark_id', reason: 'Lark binding not carried (Ferry has no Lark sign-in): these users sign in with their password' },
	{ column: 'setting', reason: 'personal settings not carried (notification channel, IP logging, sidebar): users set them again' },
	{ column: 'remark', reason: 'admin remark not carried' },
	{ column: 'stripe_customer', reason: 'Stripe customer id not carried (Ferry pays through epay only)' },
] as const

export interface UserImportContext {
	flavor: SourceFlavor
	secrets: SecretBox
	now: number
	report: ReportSection
}

/**
 * A name no other imported user has and no source user had: `<name>_<id>`, then `<name>_<id>_2`…
 * (a name taken twice in new-api once trimmed, or where the source did not keep names unique).
 */
function unusedName(username: string, id: number, taken: ReadonlySet<string>, sourceNames: ReadonlySet<string>): string {
	const base = `${username}_${id}`
	let candidate = base
	for (let suffix = 2; taken.has(candidate) || sourceNames.has(candidate); suffix++) candidate = `${base}_${suffix}`
	return candidate
}

/** Amounts that are history, not money: above MAX_QUOTA they are capped, and noted. */
function cappedAmount(value: number, what: string, id: number, report: ReportSection): number {
	if (value <= MAX_QUOTA) return value
	report.note(`${what} above Ferry's maximum: imported as ${MAX_QUOTA}`, id)
	return MAX_QUOTA
}

export function mapUsers(sourceRows: readonly SourceRow[], { flavor, secrets, now, report }: UserImportContext): UserRow[] {
	const boundTo = new Map(BINDINGS.map(({ field }) => [field, new Map<string, number>()]))
	const affCodes = new Set<string>()
	const accessTokens = new Set<string>()
	const sourceNames = new Set(sourceRows.map((row) => text(row, 'username').trim()))
	const names = new Set<string>()
	const users: UserRow[] = []
	for (const row of sourceRows) {
		report.read += 1
		const id = integer(row, 'id')
		let username = text(row, 'username').trim()
		if (id <= 0 || !username) {
			report.skip('no id or username', id || text(row, 'username'))
			continue
		}
		const quota = integer(row, 'quota')
		if (quota > MAX_QUOTA) {
			// Money: never cut down. The account stays behind until its balance is lowered in new-api.
			report.skip(`balance above Ferry's maximum of ${MAX_QUOTA} quota: lower it in new-api and import again`, id)
			continue
		}
		let deleted = deletedAt(row, now)
		let role = integer(row, 'role', ROLE.user)
		if (!KNOWN_ROLES.has(role)) {
			report.note(`role ${role} is not a Ferry role: imported as a common user`, id)
			role = ROLE.user
		}
		let status = integer(row, 'status', USER_STATUS.enabled)
		if (flavor === 'one-api' && status === ONE_API_DELETED) {
			// one-api deletes an account by its status (and renames it); Ferry by `deleted_at`.
			deleted ??= now
			status = USER_STATUS.disabled
		} else if (!KNOWN_STATUSES.has(status)) {
			report.note(`status ${status} is not a Ferry user status: imported as disabled`, id)
			status = USER_STATUS.disabled
		}
		const user: UserRow = {
			id,
			username,
			password: text(row, 'password'),
			displayName: text(row, 'display_name'),
			role,
			status,
			email: text(row, 'email').trim(),
			quota,
			usedQuota: cappedAmount(integer(row, 'used_quota'), 'used quota', id, report),
			requestCount: Math.max(0, integer(row, 'request_count')),
			group: text(row, 'group').trim() || 'default',
			affCode: text(row, 'aff_code').trim(),
			affCount: Math.max(0, integer(row, 'aff_count')),
			affQuota: cappedAmount(Math.max(0, integer(row, 'aff_quota')), 'invitation income', id, report),
			affHistoryQuota: cappedAmount(Math.max(0, integer(row, 'aff_history')), 'invitation income history', id, report),
			inviterId: Math.max(0, integer(row, 'inviter_id')),
			createdTime: unixSeconds(row, 'created_at', now) || now,
			lastLoginTime: unixSeconds(row, 'last_login_at'),
			deletedAt: deleted,
		}
		const problem = outOfRange(user)
		if (problem) {
			report.skip(problem, id)
			continue
		}
		if (names.has(username)) {
			const renamed = unusedName(username, id, names, sourceNames)
			report.note('username already used by another user: imported with its id appended', `${id} (${username} → ${renamed})`)
			user.username = username = renamed
		}
		names.add(username)
		if (username.length > USERNAME_MAX_LENGTH) report.note(`username longer than Ferry's ${USERNAME_MAX_LENGTH} characters: it signs in as it is, but saving the profile asks for a shorter one`, id)
		if (!user.password.startsWith('$2')) report.note('password is not a bcrypt hash: the user cannot sign in with a password until it is reset', id)
		for (const { column, field, name } of BINDINGS) {
			const value = text(row, column).trim()
			if (!value) continue
			const owner = boundTo.get(field)!
			if (deleted === null && owner.has(value)) {
				report.note(`${name} account also bound to user ${owner.get(value)}: binding dropped (one live account per ${name} account)`, id)
				continue
			}
			if (deleted === null) owner.set(value, id)
			user[field] = value
		}
		if (!user.affCode || affCodes.has(user.affCode)) {
			if (user.affCode) report.note('invitation code shared with another user: a new code was made', id)
			do user.affCode = randomString(AFF_CODE_LENGTH)
			while (affCodes.has(user.affCode))
		}
		affCodes.add(user.affCode)
		const accessToken = text(row, 'access_token').trim()
		if (accessToken && deleted === null && !accessTokens.has(accessToken)) {
			accessTokens.add(accessToken)
			user.accessTokenHash = secrets.digest(accessToken)
			user.accessTokenCipher = secrets.encrypt(accessToken)
		}
		for (const { column, reason } of NOT_CARRIED) {
			if (text(row, column).trim() && !(column === 'setting' && text(row, column).trim() === '{}')) report.note(reason, id)
		}
		if (deleted !== null) report.note('deleted in new-api: imported as deleted (keeps its history; cannot sign in)', id)
		users.push(user)
	}
	report.imported = users.length
	return users
}
