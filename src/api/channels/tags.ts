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

/** Answers how many of the selected channels exist and now carry the tag. */
export async function tagChannels(dependencies: Dependencies, { ids, tag }: z.infer<typeof tagChannelsSchema>): Promise<number> {
	const tagged = await dependencies.store.transaction(function* (tx, tables) {
		const { channels } = tables
		const changed = yield* rows(tx.update(channels).set({ tag }).where(inArray(channels.id, ids)).returning({ id: channels.id }))
		yield* rebuildAbilities(tx, tables, changed.map((channel) => channel.id))
		return changed.length
	})
	if (tagged > 0) dependencies.changes.notify('channels')
	return tagged
}

/** Overwrites the given fields on every channel of the tag; answers how many channels that is. */
export async function editTag(dependencies: Dependencies, input: z.infer<typeof editTagSchema>): Promise<number> {
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
		return changed.length
	})
	dependencies.changes.notify('channels')
	return edited
}

/**
 * Enables (status 1) or disables by hand (status 2) every channel of the tag; answers how many
 * channels changed status (those already in it are left alone, their `other_info` too).
 */
export async function setTagStatus(dependencies: Dependencies, tag: string, status: typeof CHANNEL_STATUS.enabled | typeof CHANNEL_STATUS.manuallyDisabled): Promise<number> {
	const now = nowSeconds()
	const changed = await dependencies.store.transaction(function* (tx, tables) {
		const { channels } = tables
		const members = yield* rows(tx.select({ id: channels.id, status: channels.status, otherInfo: channels.otherInfo }).from(channels).where(eq(channels.tag, tag)))
		if (members.length === 0) throw refused(CHANNEL_MESSAGES.noChannelsWithTag)
		const moving = members.filter((channel) => channel.status !== status)
		for (const channel of moving) {
			const otherInfo = withStatusInfo(channel.otherInfo, status, CHANNEL_MESSAGES.disabledByAdministrator, now)
			yield* run(tx.update(channels).set({ status, otherInfo }).where(eq(channels.id, channel.id)))
		}
		yield* rebuildAbilities(tx, tables, moving.map((channel) => channel.id))
		return moving.length
	})
	if (changed > 0) dependencies.changes.notify('channels')
	return changed
}
