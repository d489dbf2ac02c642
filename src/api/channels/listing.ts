/** `GET /api/channel/` and `/search`: pages of channels, or in tag mode of tag rows and untagged channels. */
import { and, count, desc, eq, or, sql, type SQL } from 'drizzle-orm'
import type { z } from 'zod'
import { isRowIdText, resolvePage, type Page } from '@shared/api'
import { splitList, TAG_STATUS, type ChannelKeyCounts, type ChannelListItem, type ChannelTagRow, type ChannelView, type channelListQuerySchema, type channelSearchQuerySchema } from '@shared/channel'
import { CHANNEL_STATUS } from '@shared/channel-type'
import type { Language } from '@shared/messages'
import type { Dependencies } from '@/dependencies'
import { readPage } from '../paging'
import { columnsWithoutKey, keyCountsOf, toChannelView, type ChannelWithoutKey } from './view'

type ListQuery = z.infer<typeof channelListQuerySchema>

export function listChannels(dependencies: Dependencies, query: ListQuery, language: Language) {
	return listWhere(dependencies, undefined, query, language)
}

/**
 * The keyword never matches keys: they are stored encrypted (with a random nonce), so the
 * database cannot compare them, and a search must not become a way to probe for a key.
 */
export function searchChannels(dependencies: Dependencies, query: z.infer<typeof channelSearchQuerySchema>, language: Language) {
	const { store } = dependencies
	const { channels } = store.tables
	const conditions: SQL[] = []
	if (query.keyword) {
		const matches = [store.contains(channels.name, query.keyword), store.contains(channels.baseUrl, query.keyword)]
		if (isRowIdText(query.keyword)) matches.push(eq(channels.id, Number(query.keyword)))
		conditions.push(or(...matches)!)
	}
	if (query.model) conditions.push(store.contains(channels.models, query.model))
	// Whole items of the comma list: `,default,` is in `,vip,default,` but not in `,default-2,`.
	if (query.group) conditions.push(store.contains(sql`(',' || ${channels.group} || ',')`, `,${query.group},`))
	return listWhere(dependencies, conditions.length ? and(...conditions) : undefined, query, language)
}

async function listWhere({ store }: Dependencies, where: SQL | undefined, query: ListQuery, language: Language): Promise<Page<ChannelListItem>> {
	let keyCounts = new Map<number, ChannelKeyCounts>()
	const view = (channel: ChannelWithoutKey) => toChannelView(channel, language, keyCounts.get(channel.id))
	/** The rows, after which the key counts of their multi-key channels are known to `view`. */
	const withKeyCounts = async (rows: ChannelWithoutKey[]) => {
		keyCounts = await keyCountsOf(store, rows)
		return rows
	}
	const { channels } = store.tables
	const order = query.id_sort ? [desc(channels.id)] : [desc(channels.priority), desc(channels.id)]
	const select = () => store.db.select(columnsWithoutKey(store.tables)).from(channels).where(where).orderBy(...order)
	if (query.tag_mode) {
		// Tag rows stand for a varying number of channels, so the page is cut after folding.
		const { page, pageSize, offset } = resolvePage(query)
		const folded = foldTags(await withKeyCounts(await select()), view)
		return { items: folded.slice(offset, offset + pageSize), page, page_size: pageSize, total: folded.length }
	}
	return readPage(query, async (limit, offset) => withKeyCounts(await select().limit(limit).offset(offset)), store.db.select({ value: count() }).from(channels).where(where), view)
}

/** Keeps the given order: a tag's row takes the place of its first channel. */
function foldTags(channels: ChannelWithoutKey[], view: (channel: ChannelWithoutKey) => ChannelView): ChannelListItem[] {
	const items: (ChannelListItem | ChannelWithoutKey[])[] = []
	const byTag = new Map<string, ChannelWithoutKey[]>()
	for (const channel of channels) {
		if (!channel.tag) {
			items.push(view(channel))
			continue
		}
		const members = byTag.get(channel.tag)
		if (members) {
			members.push(channel)
			continue
		}
		const created = [channel]
		byTag.set(channel.tag, created)
		items.push(created)
	}
	return items.map((item) => Array.isArray(item) ? tagRow(item, view) : item)
}

const sharedValue = (values: number[]) => values.every((value) => value === values[0]) ? values[0]! : null
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0)

function tagRow(members: ChannelWithoutKey[], view: (channel: ChannelWithoutKey) => ChannelView): ChannelTagRow {
	const countStatus = (status: number) => members.filter((channel) => channel.status === status).length
	const enabled = countStatus(CHANNEL_STATUS.enabled)
	const tested = members.map((channel) => channel.responseTime).filter((time) => time > 0)
	return {
		kind: 'tag',
		tag: members[0]!.tag,
		status: enabled === members.length ? TAG_STATUS.enabled : enabled === 0 ? TAG_STATUS.disabled : TAG_STATUS.mixed,
		channel_count: members.length,
		enabled_count: enabled,
		manually_disabled_count: countStatus(CHANNEL_STATUS.manuallyDisabled),
		auto_disabled_count: countStatus(CHANNEL_STATUS.autoDisabled),
		priority: sharedValue(members.map((channel) => channel.priority)),
		weight: sharedValue(members.map((channel) => channel.weight)),
		models: splitList(members.map((channel) => channel.models)).join(','),
		group: splitList(members.map((channel) => channel.group)).join(','),
		used_quota: sum(members.map((channel) => channel.usedQuota)),
		balance: sum(members.map((channel) => channel.balance)),
		response_time: tested.length ? Math.round(sum(tested) / tested.length) : 0,
		channels: members.map(view),
	}
}
