/**
 * new-api's `tokens` (model/token.go): the key is stored there in the clear, 48 letters and digits
 * without `sk-`. Ferry stores the same key its own way (an HMAC digest to look it up and an
 * encrypted copy for its owner), so `sk-<old key>` — with a `-<channel>` pin too — authenticates as
 * before. Quota, unlimited flag, expiry, model limits, allowed IPs, group and status come along.
 *
 * one-api names two columns differently: `models` (the allowed models, none meaning all) and
 * `subnet` (comma-separated address ranges).
 */
import { MAX_QUOTA } from '@shared/quota-limit'
import { modelLimitNames, TOKEN_NEVER_EXPIRES, TOKEN_STATUS } from '@shared/token'
import type { Tables } from '@/db'
import { sealTokenKey } from '@/auth/token-keys'
import type { SecretBox } from '@/lib/crypto'
import type { ReportSection } from './report'
import type { SourceRow } from './source'
import { deletedAt, flag, integer, outOfRange, text, unixSeconds } from './values'

export type TokenRow = Tables['tokens']['$inferInsert'] & { id: number; userId: number; usedQuota: number; remainQuota: number; unlimitedQuota: boolean }

const KNOWN_STATUSES = new Set<number>(Object.values(TOKEN_STATUS))

export interface TokenImportContext {
	secrets: SecretBox
	now: number
	/** Imported users by id. */
	users: ReadonlyMap<number, { deletedAt?: number | null }>
	report: ReportSection
}

/** new-api strips spaces and commas from each line of `allow_ips`; one-api separates ranges with commas. */
function addressLines(row: SourceRow): string {
	const newApi = text(row, 'allow_ips')
	if (newApi.trim()) return newApi.split('\n').map((line) => line.replaceAll(' ', '').replaceAll(',', '').trim()).filter(Boolean).join('\n')
	return text(row, 'subnet').split(',').map((range) => range.trim()).filter(Boolean).join('\n')
}

function modelLimits(row: SourceRow): { enabled: boolean; models: string } {
	if ('model_limits' in row || 'model_limits_enabled' in row) {
		const models = modelLimitNames(text(row, 'model_limits')).join(',')
		return { enabled: flag(row, 'model_limits_enabled'), models }
	}
	// one-api: a list limits the token to those models; none means every model.
	const models = modelLimitNames(text(row, 'models')).join(',')
	return { enabled: models !== '', models }
}

export function mapTokens(sourceRows: readonly SourceRow[], { secrets, now, users, report }: TokenImportContext): TokenRow[] {
	const tokens: TokenRow[] = []
	/** Each key once (with and without `sk-` it is the same key), and each user's tokens' used quota so far. */
	const keys = new Set<string>()
	const usedByUser = new Map<number, number>()
	for (const row of sourceRows) {
		report.read += 1
		const id = integer(row, 'id')
		const key = text(row, 'key').trim().replace(/^sk-/, '')
		if (id <= 0 || !key) {
			report.skip('no id or key', id)
			continue
		}
		const userId = integer(row, 'user_id')
		if (!users.has(userId)) {
			report.skip('its user does not exist or was not imported', id)
			continue
		}
		if (keys.has(key)) {
			report.skip('key already used by another token', id)
			continue
		}
		if (key.includes('-')) report.note("key contains '-': clients cannot present it (new-api could not either: both read '-' as a channel pin)", id)
		let status = integer(row, 'status', TOKEN_STATUS.enabled)
		if (!KNOWN_STATUSES.has(status)) {
			report.note(`status ${status} is not a Ferry token status: imported as disabled`, id)
			status = TOKEN_STATUS.disabled
		}
		let remainQuota = integer(row, 'remain_quota')
		if (remainQuota < 0) {
			report.note('remaining quota below zero: imported as 0', id)
			remainQuota = 0
		}
		if (remainQuota > MAX_QUOTA) {
			report.note(`remaining quota above Ferry's maximum: imported as ${MAX_QUOTA}`, id)
			remainQuota = MAX_QUOTA
		}
		let usedQuota = integer(row, 'used_quota')
		if (usedQuota < 0) {
			report.note('used quota below zero: imported as 0', id)
			usedQuota = 0
		}
		// History, not money: a user's tokens together stay within MAX_QUOTA, as the user's own used quota does.
		const usedBefore = usedByUser.get(userId) ?? 0
		if (usedQuota > MAX_QUOTA - usedBefore) {
			usedQuota = MAX_QUOTA - usedBefore
			report.note(`used quota above Ferry's maximum: imported as ${usedQuota}`, id)
		}
		const limits = modelLimits(row)
		const expiredTime = integer(row, 'expired_time', TOKEN_NEVER_EXPIRES)
		const token: TokenRow = {
			id,
			userId,
			...sealTokenKey(secrets, key),
			status,
			name: text(row, 'name'),
			createdTime: unixSeconds(row, 'created_time', now) || now,
			accessedTime: unixSeconds(row, 'accessed_time'),
			expiredTime: expiredTime === TOKEN_NEVER_EXPIRES ? expiredTime : unixSeconds(row, 'expired_time'),
			remainQuota,
			unlimitedQuota: flag(row, 'unlimited_quota'),
			modelLimitsEnabled: limits.enabled,
			modelLimits: limits.models,
			allowIps: addressLines(row),
			usedQuota,
			group: text(row, 'group').trim(),
			deletedAt: deletedAt(row, now),
		}
		const problem = outOfRange(token)
		if (problem) {
			report.skip(problem, id)
			continue
		}
		keys.add(key)
		usedByUser.set(userId, usedBefore + usedQuota)
		tokens.push(token)
		if (flag(row, 'cross_group_retry')) report.note('cross-group retry not carried (Ferry tries the auto groups in order without it)', id)
	}
	report.imported = tokens.length
	return tokens
}
