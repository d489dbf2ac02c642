import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import type { Store } from '@/db'
import { activeCooldowns, saveCooldown, sweepCooldowns } from '@/db/stores/key-cooldowns'
import { databaseTargets } from '../helpers/database'

for (const target of databaseTargets()) {
	describe(`shared key cooldowns on ${target.dialect}`, () => {
		let store: Store
		beforeEach(async () => {
			store = await target.open()
		})
		afterEach(() => store.close())

		test('a cooldown is read back while it runs, only grows, and is swept once over', async () => {
			await saveCooldown(store, { channelId: 1, keyIndex: 2, until: 5_000 })
			await saveCooldown(store, { channelId: 1, keyIndex: 2, until: 3_000 })
			await saveCooldown(store, { channelId: 4, keyIndex: 0, until: 9_000 })
			expect(await activeCooldowns(store, 1_000)).toEqual(expect.arrayContaining([{ channelId: 1, keyIndex: 2, until: 5_000 }, { channelId: 4, keyIndex: 0, until: 9_000 }]))
			expect(await activeCooldowns(store, 6_000)).toEqual([{ channelId: 4, keyIndex: 0, until: 9_000 }])
			await saveCooldown(store, { channelId: 1, keyIndex: 2, until: 12_000 })
			expect(await activeCooldowns(store, 10_000)).toEqual([{ channelId: 1, keyIndex: 2, until: 12_000 }])
			await sweepCooldowns(store, 10_000)
			expect(await activeCooldowns(store, 0)).toEqual([{ channelId: 1, keyIndex: 2, until: 12_000 }])
		})
	})
}
