import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { RelayError } from '@/relay/errors'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'

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

		const settle = async () => {
			// The bump is written just after the change; give it a moment, then look as the poller would.
			await Bun.sleep(50)
			await second.dependencies.changes.poll()
		}

		test('a token disabled on one node is refused by the other node after it polls', async () => {
			const created = await first.call('POST', '/api/token/', { as: root, body: { name: 'shared', unlimited_quota: true } })
			const { key, id } = created.body.data[0]
			const authenticate = (await import('@/relay/pipeline/token-auth')).createTokenAuthenticator(second.dependencies)
			expect((await authenticate(key, '127.0.0.1')).token.id).toBe(id)

			const disabled = await first.call('PUT', '/api/token/?status_only=true', { as: root, body: { id, status: 2 } })
			expect(disabled.body.success).toBe(true)
			// Still cached on the second node until it learns of the change…
			expect((await authenticate(key, '127.0.0.1')).token.id).toBe(id)
			await settle()
			const refusal = await authenticate(key, '127.0.0.1').catch((error: unknown) => error)
			expect(refusal).toBeInstanceOf(RelayError)
			expect((refusal as RelayError).message).toContain('disabled')
		})

		test('an option saved on one node is read by the other node after it polls', async () => {
			expect(second.dependencies.options.get('RetryTimes')).not.toBe(4)
			const saved = await first.call('PUT', '/api/option/', { as: root, body: { key: 'RetryTimes', value: '4' } })
			expect(saved.body.success).toBe(true)
			await settle()
			await Bun.sleep(50)
			expect(second.dependencies.options.get('RetryTimes')).toBe(4)
		})

		test('nothing changes on the other node when no counter moved', async () => {
			let told = 0
			const stop = second.dependencies.changes.subscribe('channels', () => told++)
			await settle()
			stop()
			expect(told).toBe(0)
		})
	})
}
