/**
 * `GET /api/pricing` (docs/specification/pricing.md#the-pricing-page): public; the models enabled channels serve, priced as
 * billing prices them, with the groups serving each, the group ratios and the usable groups.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { QUOTA_TYPE } from '@shared/pricing'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'

const USABLE_GROUPS = { default: 'Default group', vip: 'VIP group' }

for (const target of databaseTargets()) {
	describe(`the price list on ${target.dialect}`, () => {
		let ferry: TestApp
		let root: Caller

		async function setOption(key: string, value: unknown) {
			const answer = await ferry.call('PUT', '/api/option/', { as: root, body: { key, value: typeof value === 'string' ? value : JSON.stringify(value) } })
			if (!answer.body.success) throw new Error(`setting ${key} failed: ${answer.body.message}`)
		}
		async function createChannel(name: string, models: string, group: string, status = 1) {
			const answer = await ferry.call('POST', '/api/channel/', { as: root, body: { type: 1, name, key: 'sk-upstream', models, group, status } })
			if (!answer.body.success) throw new Error(`creating channel ${name} failed: ${answer.body.message}`)
		}
		const pricing = (as?: Caller, headers?: Record<string, string>) => ferry.call('GET', '/api/pricing', { as, headers })
		const entryOf = (answer: Awaited<ReturnType<typeof pricing>>, model: string) => answer.body.data.find((entry: { model_name: string }) => entry.model_name === model)

		beforeEach(async () => {
			ferry = await createTestApp(target)
			root = await ferry.loginRoot()
			await setOption('ModelRatio', { 'harbour-chat': 2.5, 'harbour-both': 1, 'harbour-hidden': 1 })
			await setOption('CompletionRatio', { 'harbour-chat': 4 })
			await setOption('ModelPrice', { 'harbour-draw': 0.04, 'harbour-both': 0.5 })
			await setOption('GroupRatio', { default: 1, vip: 1.5, svip: 6 })
			await setOption('UserUsableGroups', USABLE_GROUPS)
			await createChannel('main', 'harbour-chat,harbour-draw,harbour-both,harbour-unpriced', 'default,vip')
			await createChannel('premium', 'harbour-chat', 'svip')
			await createChannel('switched-off', 'harbour-hidden', 'default', 2)
		})
		afterEach(() => ferry.close())

		test('answers anonymous visitors with the envelope and the group ratios and usable groups beside data', async () => {
			const answer = await pricing()
			expect(answer.status).toBe(200)
			expect(answer.body).toMatchObject({ success: true, message: '' })
			expect((answer.body as any).group_ratio).toEqual({ default: 1, svip: 6, vip: 1.5 })
			expect((answer.body as any).usable_group).toEqual(USABLE_GROUPS)
		})

		test('shows a model\'s tiered prices (ModelPriceTiers), which are checked when saved and refused in the console\'s language', async () => {
			const tiers = { tiers: [{ above_prompt_tokens: 200_000, model_ratio: 5, completion_ratio: 3 }], create_cache_1h_ratio: 2, minimum_quota: 10 }
			await setOption('ModelPriceTiers', { 'harbour-chat': tiers })
			expect(entryOf(await pricing(), 'harbour-chat')).toMatchObject({ model_ratio: 2.5, tiers })
			expect(entryOf(await pricing(), 'harbour-both')).not.toHaveProperty('tiers')
			const refuse = async (value: unknown) => {
				const answer = await ferry.call('PUT', '/api/option/', { as: root, headers: { 'accept-language': 'zh-CN' }, body: { key: 'ModelPriceTiers', value: JSON.stringify(value) } })
				expect(answer.body.success).toBe(false)
				return answer.body.message as string
			}
			expect(await refuse({ m: { tiers: [{ above_prompt_tokens: 300 }, { above_prompt_tokens: 200 }] } })).toContain('tiers 须按 above_prompt_tokens 从小到大排列')
			expect(await refuse({ m: { minimum_quota: -1 } })).toContain('“m”不符合')
			expect(await refuse({ m: { formula: 'prompt * 2' } })).toContain('“m”不符合')
			expect(await refuse({ m: { tiers: [{ above_prompt_tokens: 10, model_ratio: 1e9 }] } })).toContain('“m”不符合')
		})

		test('lists a model priced by ratios with its model and completion ratio and every group that serves it', async () => {
			expect(entryOf(await pricing(), 'harbour-chat')).toEqual({
				model_name: 'harbour-chat', quota_type: QUOTA_TYPE.byTokens, model_ratio: 2.5, model_price: 0, completion_ratio: 4, enable_groups: ['default', 'svip', 'vip'],
			})
		})

		test('lists a fixed-price model per call, and a fixed price wins over a ratio as in billing', async () => {
			const answer = await pricing()
			expect(entryOf(answer, 'harbour-draw')).toMatchObject({ quota_type: QUOTA_TYPE.perCall, model_price: 0.04, enable_groups: ['default', 'vip'] })
			expect(entryOf(answer, 'harbour-both')).toMatchObject({ quota_type: QUOTA_TYPE.perCall, model_price: 0.5, model_ratio: 0 })
		})

		test('leaves out models only disabled channels serve and models without any price', async () => {
			const names = (await pricing()).body.data.map((entry: { model_name: string }) => entry.model_name)
			expect(names).toEqual(['harbour-both', 'harbour-chat', 'harbour-draw'])
		})

		test('a channel switched off removes its groups, and switched on brings them back', async () => {
			const listed = await ferry.call('GET', '/api/channel/search?keyword=premium', { as: root })
			const premium = listed.body.data.items[0].id
			await ferry.call('PUT', '/api/channel/', { as: root, body: { id: premium, status: 2 } })
			expect(entryOf(await pricing(), 'harbour-chat').enable_groups).toEqual(['default', 'vip'])
			await ferry.call('PUT', '/api/channel/', { as: root, body: { id: premium, status: 1 } })
			expect(entryOf(await pricing(), 'harbour-chat').enable_groups).toEqual(['default', 'svip', 'vip'])
		})

		test('a signed-in user sees their own usable groups, including their own group, and the ratios billing applies to them', async () => {
			const sailor = await ferry.createUser('sailor')
			await ferry.call('PUT', '/api/user/', { as: root, body: { id: sailor.userId, group: 'crew' } })
			await setOption('GroupGroupRatio', { crew: { vip: 0.8 } })
			const answer = await pricing(sailor)
			expect((answer.body as any).usable_group).toEqual({ ...USABLE_GROUPS, crew: 'crew' })
			expect((answer.body as any).group_ratio).toMatchObject({ vip: 0.8, svip: 6, default: 1, crew: 1 })
			// Anonymous visitors keep the plain group ratios.
			expect((await pricing()).body).toMatchObject({ group_ratio: { vip: 1.5 }, usable_group: USABLE_GROUPS })
		})

		test('a session cookie without its New-Api-User header is answered as for an anonymous visitor, not refused', async () => {
			const sailor = await ferry.createUser('sailor')
			await ferry.call('PUT', '/api/user/', { as: root, body: { id: sailor.userId, group: 'crew' } })
			const answer = await pricing(undefined, { cookie: sailor.cookie! })
			expect(answer.status).toBe(200)
			expect((answer.body as any).usable_group).toEqual(USABLE_GROUPS)
		})

		test('an unknown or forged session cookie is answered as for an anonymous visitor', async () => {
			const answer = await pricing(undefined, { cookie: 'ferry_session=forged.value.here', 'new-api-user': '1' })
			expect(answer.status).toBe(200)
			expect(answer.body.success).toBe(true)
			expect((answer.body as any).usable_group).toEqual(USABLE_GROUPS)
		})
	})
}
