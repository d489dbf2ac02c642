/**
 * Reads the source's core tables (users, tokens, channels, options, redemption codes, top-up orders) and turns
 * them into Ferry rows, reporting what is left out and why. Nothing is written: `--dry-run` stops
 * here, and `write.ts` stores a plan in one transaction.
 */
import { splitList } from '@shared/channel'
import type { OpeningAccount } from '@/billing/opening-balance'
import type { SecretBox } from '@/lib/crypto'
import { openingAccounts } from './balances'
import { mapChannels, type ChannelRow } from './channels'
import type { SourceFlavor } from './channel-types'
import { mapOptions, type OptionRow } from './options'
import { mapRedemptions, type RedemptionRow } from './redemptions'
import type { ImportReport, ReportSection } from './report'
import type { SourceDatabase, SourceRow } from './source'
import { mapTokens, type TokenRow } from './tokens'
import { mapTopUps, type TopUpRow } from './top-ups'
import { mapUsers, type UserRow } from './users'

export interface ImportPlan {
	flavor: SourceFlavor
	users: UserRow[]
	tokens: TokenRow[]
	channels: ChannelRow[]
	options: OptionRow[]
	redemptions: RedemptionRow[]
	topUps: TopUpRow[]
	accounts: OpeningAccount[]
	/** The opening entries' log ids start above the source's log history, which keeps its ids. */
	firstLogId: number
}

export interface PlanContext {
	secrets: SecretBox
	now: number
	report: ImportReport
	progress(line: string): void
	/** Where `logs` lives when new-api kept it apart (`LOG_SQL_DSN`); the source itself otherwise. */
	logsSource?: SourceDatabase
}

export const PAGE_SIZE = 1000

/** new-api tables for features Ferry does not have: counted in the report, not read. */
const TABLES_LEFT_BEHIND: Record<string, string> = {
	two_fas: 'two-factor sign-in (Ferry has none: these users sign in with their password alone)',
	two_fa_backup_codes: 'two-factor backup codes',
	passkey_credentials: 'passkeys (Ferry has none)',
	user_oauth_bindings: 'bindings to custom OAuth providers (Ferry has none)',
	custom_oauth_providers: 'custom OAuth providers',
	subscription_plans: 'subscription plans (Ferry has no subscriptions)',
	user_subscriptions: 'user subscriptions (Ferry has no subscriptions)',
	checkins: 'daily check-ins',
	models: 'model metadata (descriptions, icons, vendors)',
	vendors: 'model vendors',
	prefill_groups: 'prefill groups',
}

export class NotNewApiError extends Error {}

export async function readTable(source: SourceDatabase, table: string, progress: (line: string) => void): Promise<SourceRow[] | undefined> {
	if (!await source.hasTable(table)) return undefined
	const rows: SourceRow[] = []
	const read = table === 'options' ? [source.all(table)] : source.pages(table, PAGE_SIZE)
	for await (const page of read) rows.push(...page)
	progress(`read ${table}: ${rows.length} rows`)
	return rows
}

const NO_ID_REASON = "no positive id (NULL, zero or below): Ferry keeps the source's ids"

/** Reads nothing: counts the rows paging by id never reaches, as read and skipped. */
export async function reportRowsWithoutId(source: SourceDatabase, table: string, section: ReportSection) {
	const rows = await source.countWithoutId(table)
	if (rows === 0) return
	section.read += rows
	section.skip(NO_ID_REASON, undefined, rows)
}

/** one-api's tokens name their model list `models` and their address ranges `subnet`. */
async function flavorOf(source: SourceDatabase): Promise<SourceFlavor> {
	const tokenColumns = await source.columns('tokens')
	if (tokenColumns.has('model_limits') || tokenColumns.has('allow_ips')) return 'new-api'
	if (tokenColumns.has('subnet') || tokenColumns.has('models')) return 'one-api'
	return (await source.columns('channels')).has('config') ? 'one-api' : 'new-api'
}

export async function planImport(source: SourceDatabase, { secrets, now, report, progress, logsSource = source }: PlanContext): Promise<ImportPlan> {
	if (!await source.hasTable('users')) throw new NotNewApiError(`${source.description} has no users table: it is not a new-api or one-api database`)
	const flavor = await flavorOf(source)
	progress(`source: a ${flavor} database (${source.description})`)
	/** `section`: the report's name for the table, when it is not the table's. */
	const table = async (name: string, section = name) => {
		const rows = await readTable(source, name, progress)
		if (!rows) report.section(section).note('the source has no such table: nothing to import')
		else if (name !== 'options') await reportRowsWithoutId(source, name, report.section(section))
		return rows ?? []
	}
	const users = mapUsers(await table('users'), { flavor, secrets, now, report: report.section('users') })
	const userIds = new Map(users.map((user) => [user.id, user]))
	const tokens = mapTokens(await table('tokens'), { secrets, now, users: userIds, report: report.section('tokens') })
	const channels = mapChannels(await table('channels'), { flavor, secrets, now, report: report.section('channels') })
	const abilities = report.section('abilities')
	abilities.read = await source.hasTable('abilities') ? await source.count('abilities') : 0
	abilities.imported = channels.reduce((total, channel) => total + splitList(channel.group ?? '').length * splitList(channel.models ?? '').length, 0)
	abilities.note('rebuilt from the imported channels (groups × models), as Ferry keeps them')
	const options = mapOptions(await table('options'), report.section('options'))
	const redemptions = mapRedemptions(await table('redemptions', 'redemption codes'), now, report.section('redemption codes'))
	const topUps = mapTopUps(await table('top_ups', 'top-up orders'), new Set(userIds.keys()), now, report.section('top-up orders'))
	const accounts = openingAccounts(users, tokens, report.section('balances'))
	const ledger = report.section('balances')
	ledger.read = users.length
	ledger.imported = accounts.length
	ledger.note('each balance and used quota is opened in the ledger: "opening balance" and "quota used before the move" log lines, and settled charges per token')
	for (const [name, reason] of Object.entries(TABLES_LEFT_BEHIND)) {
		const rows = await source.hasTable(name) ? await source.count(name) : 0
		if (rows === 0) continue
		const leftBehind = report.section('other new-api tables')
		leftBehind.read += rows
		leftBehind.skip(`${reason}: table ${name}`, undefined, rows)
	}
	const firstLogId = (await logsSource.hasTable('logs') ? await logsSource.maxId('logs') : 0) + 1
	return { flavor, users, tokens, channels, options, redemptions, topUps, accounts, firstLogId }
}
