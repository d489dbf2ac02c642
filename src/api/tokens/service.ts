/**
 * The signed-in user's own API tokens. Every read and write is scoped to the owner, so another
 * user's token id answers exactly like one that does not exist.
 */
import { and, count, desc, eq, gt, inArray, isNull, type SQL } from 'drizzle-orm'
import type { Page, PageQuery } from '@shared/api'
import {
	TOKEN_MESSAGES, TOKEN_NAME_SUFFIX_LENGTH, TOKEN_STATUS, type CreateTokenInput, type TokenView, type UpdateTokenInput,
} from '@shared/token'
import { QUOTA_LIMIT_MESSAGES } from '@shared/quota-limit'
import { tokenRemainFits } from '@/billing/ledger'
import { rows, type Store } from '@/db'
import type { Dependencies } from '@/dependencies'
import { nowSeconds } from '@/lib/clock'
import { randomString } from '@/lib/crypto'
import { badRequest, notFound, refused } from '../errors'
import { readPage } from '../paging'
import { AUTO_GROUP } from '@shared/user'
import { usableGroups } from '@/billing/groups'
import type { UserRecord } from '@/db/stores/users'
import { newTokenKey, sealTokenKey, tokenKeyDigest } from '@/auth/token-keys'
import { effectiveStatus, hasExpired, isExhausted } from '@/auth/token-status'
import { toTokenView, type TokenPeriodRecord, type TokenRecord } from './view'
import { reviseTokenWindowsWork } from '@/billing/token-windows'

function ownedBy(store: Store, userId: number): SQL {
	const { tokens } = store.tables
	return and(eq(tokens.userId, userId), isNull(tokens.deletedAt))!
}

async function listWhere(dependencies: Dependencies, userId: number, condition: SQL | undefined, query: PageQuery): Promise<Page<TokenView>> {
	const { store, secrets } = dependencies
	const { tokens } = store.tables
	const where = and(ownedBy(store, userId), condition)
	const now = nowSeconds()
	const page = await readPage(query, (limit, offset) => store.db.select().from(tokens).where(where).orderBy(desc(tokens.id)).limit(limit).offset(offset),
		store.db.select({ value: count() }).from(tokens).where(where), (token) => token)
	// The page's window periods in one read, and only when some token of it has windows.
	const windowed = page.items.filter((token) => token.quotaWindows !== '[]').map((token) => token.id)
	const periods = await currentPeriods(store, windowed, now)
	return { ...page, items: page.items.map((token) => toTokenView(secrets, token, now, periods)) }
}

/** The current periods of the tokens' spend windows. */
async function currentPeriods(store: Store, tokenIds: number[], now: number): Promise<TokenPeriodRecord[]> {
	if (tokenIds.length === 0) return []
	const { tokenPeriods } = store.tables
	return store.db.select().from(tokenPeriods).where(and(inArray(tokenPeriods.tokenId, tokenIds), gt(tokenPeriods.endsAt, now)))
}

export function listTokens(dependencies: Dependencies, userId: number, query: PageQuery) {
	return listWhere(dependencies, userId, undefined, query)
}

/** `keyword` matches part of the name, any case; `token` matches a whole key by its digest. */
export function searchTokens(dependencies: Dependencies, userId: number, { keyword, token }: { keyword: string; token: string }, query: PageQuery) {
	const { store, secrets } = dependencies
	const { tokens } = store.tables
	const conditions: SQL[] = []
	if (keyword.trim()) conditions.push(store.contains(tokens.name, keyword.trim()))
	if (token.trim()) conditions.push(eq(tokens.keyHash, tokenKeyDigest(secrets, token)))
	return listWhere(dependencies, userId, conditions.length ? and(...conditions) : undefined, query)
}

async function requireToken(store: Store, userId: number, id: number): Promise<TokenRecord> {
	const { tokens } = store.tables
	const [token] = await store.db.select().from(tokens).where(and(ownedBy(store, userId), eq(tokens.id, id))).limit(1)
	if (!token) throw notFound(TOKEN_MESSAGES.notFound)
	return token
}

export async function getToken(dependencies: Dependencies, userId: number, id: number): Promise<TokenView> {
	const token = await requireToken(dependencies.store, userId, id)
	const now = nowSeconds()
	return toTokenView(dependencies.secrets, token, now, await currentPeriods(dependencies.store, [token.id], now))
}

/** Empty means the owner's group; anything else must be one the owner may use. */
function assertUsableGroup(dependencies: Dependencies, user: UserRecord, group: string) {
	// `auto` routes each call to the first of AutoGroups that serves its model (the relay decides).
	if (group && group !== AUTO_GROUP && !Object.hasOwn(usableGroups(dependencies.options, user), group)) throw refused(TOKEN_MESSAGES.groupUnusable)
}

/**
 * Creates `count` tokens in one statement, so a failure leaves none behind. The first is called
 * `name`, the others `name-XXXXXX`. Answers the new tokens with their keys.
 */
export async function createTokens(dependencies: Dependencies, user: UserRecord, input: CreateTokenInput): Promise<TokenView[]> {
	const { store, secrets } = dependencies
	const now = nowSeconds()
	if (hasExpired({ expiredTime: input.expired_time }, now)) throw refused(TOKEN_MESSAGES.expiryPast)
	assertUsableGroup(dependencies, user, input.group)
	const fields = {
		userId: user.id,
		...settableColumns(input),
		status: isExhausted({ remainQuota: input.remain_quota, unlimitedQuota: input.unlimited_quota }) ? TOKEN_STATUS.exhausted : TOKEN_STATUS.enabled,
	}
	const values = Array.from({ length: input.count }, (_, index) => ({
		...fields,
		...sealTokenKey(secrets, newTokenKey()),
		name: index === 0 ? input.name : `${input.name}-${randomString(TOKEN_NAME_SUFFIX_LENGTH)}`,
	}))
	const created = await store.transaction(function* (tx, { tokens }) {
		return yield* rows(tx.insert(tokens).values(values).returning())
	})
	// No change notice: no cache can hold a key made just now, and the notice would empty every
	// node's token cache (each of its tokens read again on its next call) for nothing.
	return created.sort((first, second) => first.id - second.id).map((token) => toTokenView(secrets, token, now))
}

/**
 * `statusOnly`: switches between enabled and disabled; an expired or exhausted token is enabled
 * only after its expiry or quota is changed. Otherwise a full edit of the given fields: a disabled
 * token stays disabled, any other takes the state its new expiry and quota give it (so raising the
 * quota of an exhausted token enables it again).
 */
export async function updateToken(dependencies: Dependencies, user: UserRecord, input: UpdateTokenInput, statusOnly: boolean): Promise<TokenView> {
	const { store, secrets } = dependencies
	const { tokens } = store.tables
	const current = await requireToken(store, user.id, input.id)
	const now = nowSeconds()
	let changes: Partial<TokenRecord>
	if (statusOnly) {
		if (input.status === TOKEN_STATUS.enabled) {
			if (hasExpired(current, now)) throw refused(TOKEN_MESSAGES.expiredCannotEnable)
			if (isExhausted(current)) throw refused(TOKEN_MESSAGES.exhaustedCannotEnable)
		} else if (input.status !== TOKEN_STATUS.disabled) {
			throw badRequest(TOKEN_MESSAGES.statusInvalid)
		}
		changes = { status: input.status }
	} else {
		changes = editedFields(current, input)
		const edited = { ...current, ...changes }
		const disabled = current.status === TOKEN_STATUS.disabled
		if (!disabled && changes.expiredTime !== undefined && hasExpired(edited, now)) throw refused(TOKEN_MESSAGES.expiryPast)
		if (changes.group) assertUsableGroup(dependencies, user, changes.group)
		const status = disabled ? current.status : effectiveStatus({ ...edited, status: TOKEN_STATUS.enabled }, now)
		if (status !== current.status) changes.status = status
	}
	if (Object.keys(changes).length === 0) return toTokenView(secrets, current, now, await currentPeriods(store, [current.id], now))
	const fits = changes.remainQuota === undefined ? undefined : tokenRemainFits(store.tables, current.id, changes.remainQuota)
	const [updated] = await store.db.update(tokens).set(changes).where(and(ownedBy(store, user.id), eq(tokens.id, current.id), fits)).returning()
	if (!updated) {
		// Deleted meanwhile (not found), or the new quota and the token's calls in flight pass the maximum.
		if (fits) await requireToken(store, user.id, current.id)
		throw fits ? refused(QUOTA_LIMIT_MESSAGES.balanceLimit) : notFound(TOKEN_MESSAGES.notFound)
	}
	if (changes.quotaWindows !== undefined) {
		const windows = input.quota_windows!
		await store.transaction(() => reviseTokenWindowsWork(current.id, windows, now))
	}
	dependencies.changes.notify('tokens')
	return toTokenView(secrets, updated, now, await currentPeriods(store, [updated.id], now))
}

type SettableFields = Pick<UpdateTokenInput, 'quota_windows' | 'remain_quota' | 'unlimited_quota' | 'expired_time' | 'model_limits_enabled' | 'model_limits' | 'allow_ips' | 'group' | 'concurrency_limit' | 'rpm_limit' | 'tpm_limit' | 'rpd_limit' | 'response_cache_enabled'>

/** The token settings a caller may set, from their wire names to their columns. */
function settableColumns<Input extends SettableFields>(input: Input) {
	return {
		remainQuota: input.remain_quota,
		unlimitedQuota: input.unlimited_quota,
		expiredTime: input.expired_time,
		modelLimitsEnabled: input.model_limits_enabled,
		modelLimits: input.model_limits,
		allowIps: input.allow_ips,
		group: input.group,
		concurrencyLimit: input.concurrency_limit,
		rpmLimit: input.rpm_limit,
		tpmLimit: input.tpm_limit,
		rpdLimit: input.rpd_limit,
		responseCacheEnabled: input.response_cache_enabled,
		quotaWindows: input.quota_windows === undefined ? undefined : JSON.stringify(input.quota_windows),
	}
}

/**
 * The fields the edit really changes. Values equal to the stored ones are left out, so that an
 * edit sent with a stale remaining quota does not undo what requests spent meanwhile.
 */
function editedFields(current: TokenRecord, input: UpdateTokenInput): Partial<TokenRecord> {
	const wanted: Partial<TokenRecord> = { name: input.name, ...settableColumns(input) }
	const changes: Partial<TokenRecord> = {}
	for (const [field, value] of Object.entries(wanted) as [keyof TokenRecord, unknown][]) {
		if (value !== undefined && value !== current[field]) Object.assign(changes, { [field]: value })
	}
	return changes
}

/** Soft delete: the row stays for the logs and the ledger audit, and the relay no longer finds it. */
export async function deleteToken(dependencies: Dependencies, userId: number, id: number) {
	const { store } = dependencies
	const { tokens } = store.tables
	const [deleted] = await store.db.update(tokens).set({ deletedAt: nowSeconds() })
		.where(and(ownedBy(store, userId), eq(tokens.id, id)))
		.returning({ id: tokens.id })
	if (!deleted) throw notFound(TOKEN_MESSAGES.notFound)
	dependencies.changes.notify('tokens')
}
