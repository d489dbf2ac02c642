/** Acting on channels by tag: set a tag on a selection, edit, enable or disable every channel of a tag. */
import { eq, inArray } from 'drizzle-orm'
import type { z } from 'zod'
import { CHANNEL_MESSAGES, type editTagSchema, type tagChannelsSchema } from '@shared/channel'
import { CHANNEL_STATUS } from '@shared/channel-type'
import { rows, run } from '@/db'
import type { Dependencies } from '@/dependencies'
import { nowSeconds } from '@/lib/clock'
import { refused } from '../errors'
import { rebuildAbilities } from '@/db/stores/abilities'
import { withStatusInfo } from '@/db/stores/channels'
import { joinGroups, type ChannelColumns } from './fields'
import { adminActionWork, namedList, type AdminActor } from '../admin-audit'
import { DISABLED_BY_ADMINISTRATOR } from './fields'

/** Answers how many of the selected channels exist and now carry the tag. */
export async function tagChannels(dependencies: Dependencies, { ids, tag }: z.infer<typeof tagChannelsSchema>, actor: AdminActor): Promise<number> {
	const tagged = await dependencies.store.transaction(function* (tx, tables) {
		const { channels } = tables
		const changed = yield* rows(tx.update(channels).set({ tag }).where(inArray(channels.id, ids)).returning({ id: channels.id, name: channels.name }))
		yield* rebuildAbilities(tx, tables, changed.map((channel) => channel.id))
		if (changed.length > 0) {
			const target = namedList(changed)
			yield* adminActionWork(tx, tables, actor, { action: 'channel.tag_set', target, summary: `set the tag "${tag}" on channel ${target}`, details: { tag, count: changed.length } })
		}
		return changed.length
	})
	if (tagged > 0) dependencies.changes.notify('channels')
	return tagged
}

/** The columns a tag edit may set, by their API field names. */
const EDITED_FIELDS: Record<string, string> = { modelMapping: 'model_mapping', group: 'groups' }

/** Overwrites the given fields on every channel of the tag; answers how many channels that is. */
export async function editTag(dependencies: Dependencies, input: z.infer<typeof editTagSchema>, actor: AdminActor): Promise<number> {
	const columns: Partial<ChannelColumns> = {}
	if (input.new_tag !== undefined && input.new_tag !== null && input.new_tag !== input.tag) columns.tag = input.new_tag
	if (input.model_mapping !== undefined) columns.modelMapping = input.model_mapping
	if (input.groups?.length) columns.group = joinGroups(input.groups)
	if (input.models?.length) columns.models = input.models.join(',')
	if (input.priority !== undefined) columns.priority = input.priority
	if (input.weight !== undefined) columns.weight = input.weight
	if (Object.keys(columns).length === 0) throw refused(CHANNEL_MESSAGES.noChanges)
	const edited = await dependencies.store.transaction(function* (tx, tables) {
		const { channels } = tables
		const changed = yield* rows(tx.update(channels).set(columns).where(eq(channels.tag, input.tag)).returning({ id: channels.id }))
		if (changed.length === 0) throw refused(CHANNEL_MESSAGES.noChannelsWithTag)
		yield* rebuildAbilities(tx, tables, changed.map((channel) => channel.id))
		const fields = Object.keys(columns).map((column) => EDITED_FIELDS[column] ?? column).join(',')
		yield* adminActionWork(tx, tables, actor, {
			action: 'channel.tag_edit', target: `"${input.tag}"`, summary: `edited the ${changed.length} channel(s) of the tag "${input.tag}": ${fields}`,
			details: { tag: input.tag, fields, count: changed.length },
		})
		return changed.length
	})
	dependencies.changes.notify('channels')
	return edited
}

/**
 * Enables (status 1) or disables by hand (status 2) every channel of the tag; answers how many
 * channels changed status (those already in it are left alone, their `other_info` too).
 */
export async function setTagStatus(dependencies: Dependencies, tag: string, status: typeof CHANNEL_STATUS.enabled | typeof CHANNEL_STATUS.manuallyDisabled, actor: AdminActor): Promise<number> {
	const now = nowSeconds()
	const changed = await dependencies.store.transaction(function* (tx, tables) {
		const { channels } = tables
		const members = yield* rows(tx.select({ id: channels.id, status: channels.status, otherInfo: channels.otherInfo }).from(channels).where(eq(channels.tag, tag)))
		if (members.length === 0) throw refused(CHANNEL_MESSAGES.noChannelsWithTag)
		const moving = members.filter((channel) => channel.status !== status)
		for (const channel of moving) {
			const otherInfo = withStatusInfo(channel.otherInfo, status, DISABLED_BY_ADMINISTRATOR, now)
			yield* run(tx.update(channels).set({ status, otherInfo }).where(eq(channels.id, channel.id)))
		}
		yield* rebuildAbilities(tx, tables, moving.map((channel) => channel.id))
		const enabling = status === CHANNEL_STATUS.enabled
		if (moving.length > 0) {
			yield* adminActionWork(tx, tables, actor, {
				action: enabling ? 'channel.tag_enable' : 'channel.tag_disable', target: `"${tag}"`,
				summary: `${enabling ? 'enabled' : 'disabled'} the ${moving.length} channel(s) of the tag "${tag}"`, details: { tag, count: moving.length },
			})
		}
		return moving.length
	})
	if (changed > 0) dependencies.changes.notify('channels')
	return changed
}
