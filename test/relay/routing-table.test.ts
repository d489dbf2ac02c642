import { describe, expect, test } from 'bun:test'
import { RoutingTable, type RoutableChannel } from '@/relay/routing/routing-table'

const channel = (id: number, priority: number, weight: number, fields: Partial<RoutableChannel> = {}): RoutableChannel => ({
	id, type: 1, name: `c${id}`, key: 'k', baseUrl: '', other: '', organization: '', models: ['m'], groups: ['default'],
	priority, weight, modelMapping: {}, statusCodeMapping: {}, autoBan: true, setting: {}, maxInputTokens: 0, testModel: '', mode: 'single', multiKeyMode: 'random',
	keys: [{ index: 0, key: 'k' }], cost: { ratio: undefined, models: {} }, settingsFingerprint: '', ...fields,
})

/** The table's contents when only enabled channels list anything. */
const only = (...channels: RoutableChannel[]) => ({ channels, listings: [] })

describe('the routing table', () => {
	test('makes every concurrent caller wait for the rebuild in progress', async () => {
		let release!: () => void
		const gate = new Promise<void>((resolve) => { release = resolve })
		const table = new RoutingTable(async () => {
			await gate
			return only(channel(1, 0, 1))
		})
		const waiting = [table.ready(), table.ready(), table.ready()]
		release()
		await Promise.all(waiting)
		expect(table.hasModel('default', 'm')).toBe(true)
	})

	test('rebuilds again when channels change during a rebuild', async () => {
		let loads = 0
		let table!: RoutingTable
		table = new RoutingTable(async () => {
			loads++
			if (loads === 1) table.invalidate()
			return only(channel(loads, 0, 1))
		})
		await table.ready()
		expect(loads).toBe(2)
		expect(table.channel(2)).toBeDefined()
	})

	test('picks the highest priority first and moves to the next priority once it is tried', async () => {
		const table = new RoutingTable(async () => only(channel(1, 10, 1), channel(2, 10, 1), channel(3, 5, 1)))
		await table.ready()
		const first = table.pick('default', 'm', new Set())!.id
		expect([1, 2]).toContain(first)
		const second = table.pick('default', 'm', new Set([first]))!.id
		expect(second).toBe(first === 1 ? 2 : 1)
		expect(table.pick('default', 'm', new Set([1, 2]))!.id).toBe(3)
		expect(table.pick('default', 'm', new Set([1, 2, 3]))).toBeUndefined()
	})

	test('chooses by weight inside one priority', async () => {
		const table = new RoutingTable(async () => only(channel(1, 0, 1), channel(2, 0, 3)))
		await table.ready()
		expect(table.pick('default', 'm', new Set(), { random: () => 0.2 })!.id).toBe(1)
		expect(table.pick('default', 'm', new Set(), { random: () => 0.3 })!.id).toBe(2)
	})

	test('serves a channel only in its groups and for its models, and forgets a removed channel at once', async () => {
		const table = new RoutingTable(async () => only(channel(1, 0, 1, { groups: ['vip'], models: ['a', 'b'] })))
		await table.ready()
		expect(table.models('vip')).toEqual(['a', 'b'])
		expect(table.hasModel('default', 'a')).toBe(false)
		table.remove(1)
		expect(table.pick('vip', 'a', new Set())).toBeUndefined()
	})

	test('picks and counts only the channels the caller accepts, whatever their priority', async () => {
		const table = new RoutingTable(async () => only(channel(1, 10, 1, { type: 14 }), channel(2, 0, 1, { type: 38 })))
		await table.ready()
		const rerankers = (candidate: RoutableChannel) => candidate.type === 38
		expect(table.hasModel('default', 'm', rerankers)).toBe(true)
		expect(table.hasModel('default', 'm', () => false)).toBe(false)
		for (let draw = 0; draw < 5; draw++) expect(table.pick('default', 'm', new Set(), { accepts: rerankers })!.id).toBe(2)
		expect(table.pick('default', 'm', new Set([2]), { accepts: rerankers })).toBeUndefined()
	})

	test('knows which models a group lists on any channel, enabled or not, even after the enabled one is taken out', async () => {
		const disabled = { groups: ['default', 'vip'], models: ['off'] }
		const table = new RoutingTable(async () => ({ channels: [channel(1, 0, 1, { models: ['on'] })], listings: [disabled] }))
		await table.ready()
		expect(table.listsModel('vip', 'off')).toBe(true)
		expect(table.hasModel('vip', 'off')).toBe(false)
		expect(table.listsModel('default', 'on')).toBe(true)
		expect(table.listsModel('vip', 'on')).toBe(false)
		expect(table.listsModel('default', 'unlisted')).toBe(false)
		table.remove(1)
		expect(table.hasModel('default', 'on')).toBe(false)
		expect(table.listsModel('default', 'on')).toBe(true)
	})
})
