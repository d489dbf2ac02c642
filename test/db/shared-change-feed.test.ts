import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { RelayError } from '@/relay/errors'
import { createTestApp, testConfig, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'
import { eventually } from '../helpers/eventually'
import { uniquePrefix } from '../helpers/redis'
import { redisUrl } from '../helpers/services'

for (const target of databaseTargets()) {
	describe(`changes made on one node reach another node's caches on ${target.dialect}`, () => {
		let first: TestApp
		let second: TestApp
		let root: Caller
		let close: () => Promise<void>

		beforeAll(async () => {
			const [storeA, storeB] = await target.openTwo()
			close = () => storeA.close()
			first = await createTestApp({ open: async () => storeA })
			second = await createTestApp({ open: async () => storeB })
			root = await first.loginRoot()
			// The baseline: from here on, every counter another node bumps is noticed.
			await second.dependencies.changes.poll()
		})
		afterAll(() => close?.())

		/** Polls as the poller would until `arrived`: the counter is bumped after the change, not with its answer. */
		const pollUntil = (arrived: () => Promise<boolean> | boolean) => eventually(async () => {
			await second.dependencies.changes.poll()
			return arrived()
		})

		test('a token disabled on one node is refused by the other node after it polls', async () => {
			const created = await first.call('POST', '/api/token/', { as: root, body: { name: 'shared', unlimited_quota: true } })
			const { key, id } = created.body.data[0]
			const authenticate = (await import('@/relay/edge/token-auth')).createTokenAuthenticator(second.dependencies)
			expect((await authenticate(key, '127.0.0.1')).token.id).toBe(id)

			const disabled = await first.call('PUT', '/api/token/?status_only=true', { as: root, body: { id, status: 2 } })
			expect(disabled.body.success).toBe(true)
			// Still cached on the second node until it learns of the change…
			expect((await authenticate(key, '127.0.0.1')).token.id).toBe(id)
			const refused = () => authenticate(key, '127.0.0.1').then(() => undefined, (error: unknown) => error)
			await pollUntil(async () => (await refused()) !== undefined)
			const refusal = await refused()
			expect(refusal).toBeInstanceOf(RelayError)
			expect((refusal as RelayError).message).toContain('disabled')
		})

		test('an option saved on one node is read by the other node after it polls', async () => {
			expect(second.dependencies.options.get('RetryTimes')).not.toBe(4)
			const saved = await first.call('PUT', '/api/option/', { as: root, body: { key: 'RetryTimes', value: '4' } })
			expect(saved.body.success).toBe(true)
			await pollUntil(() => second.dependencies.options.get('RetryTimes') === 4)
			expect(second.dependencies.options.get('RetryTimes')).toBe(4)
		})

		test('nothing changes on the other node when no counter moved', async () => {
			let told = 0
			const stop = second.dependencies.changes.subscribe('channels', () => told++)
			// The earlier checks waited for their own bumps, so none is on its way.
			await second.dependencies.changes.poll()
			stop()
			expect(told).toBe(0)
		})
	})
}

const redis = redisUrl()

for (const target of databaseTargets()) {
	describe.skipIf(!redis)(`with Redis, changes reach the other node without polling, on ${target.dialect}`, () => {
		let first: TestApp
		let second: TestApp
		let root: Caller
		let close: () => Promise<void>

		beforeAll(async () => {
			const [storeA, storeB] = await target.openTwo()
			const config = { ...testConfig, redisUrl: redis!, redisKeyPrefix: uniquePrefix('changes') }
			first = await createTestApp({ open: async () => storeA }, { config })
			second = await createTestApp({ open: async () => storeB }, { config })
			close = async () => {
				await first.close()
				await second.close()
			}
			root = await first.loginRoot()
			await second.dependencies.changes.poll()
		})
		afterAll(() => close?.())

		test('an option saved on one node is read on the other through Redis, though it never polls', async () => {
			const heard: string[] = []
			const stop = second.dependencies.changes.subscribe('options', (origin) => heard.push(origin))
			const saved = await first.call('PUT', '/api/option/', { as: root, body: { key: 'RetryTimes', value: '3' } })
			expect(saved.body.success).toBe(true)
			// No poller runs in a test app: only the message through Redis can bring it.
			await eventually(async () => second.dependencies.options.get('RetryTimes') === 3)
			stop()
			expect(second.dependencies.options.get('RetryTimes')).toBe(3)
			expect(heard).toEqual(['remote'])
			// The poll that follows knows the change already: it tells nobody again.
			let told = 0
			const stopCounting = second.dependencies.changes.subscribe('options', () => told++)
			await second.dependencies.changes.poll()
			stopCounting()
			expect(told).toBe(0)
		})

		test('a node hears nothing of its own changes through Redis', async () => {
			const heard: string[] = []
			const stop = first.dependencies.changes.subscribe('channels', (origin) => heard.push(origin))
			first.dependencies.changes.notify('channels')
			await Bun.sleep(150)
			stop()
			expect(heard).toEqual(['local'])
		})
	})

	describe.skipIf(!redis)(`with Redis down, changes still reach the other node through the database, on ${target.dialect}`, () => {
		test('the counter carries the change and nothing fails', async () => {
			const [storeA, storeB] = await target.openTwo()
			const config = { ...testConfig, redisUrl: 'redis://127.0.0.1:1', redisKeyPrefix: uniquePrefix('down') }
			const first = await createTestApp({ open: async () => storeA }, { config })
			const second = await createTestApp({ open: async () => storeB }, { config })
			try {
				const root = await first.loginRoot()
				await second.dependencies.changes.poll()
				const saved = await first.call('PUT', '/api/option/', { as: root, body: { key: 'RetryTimes', value: '2' } })
				expect(saved.body.success).toBe(true)
				await eventually(async () => {
					await second.dependencies.changes.poll()
					return second.dependencies.options.get('RetryTimes') === 2
				})
			} finally {
				await first.close()
				await second.close()
			}
		})
	})
}
