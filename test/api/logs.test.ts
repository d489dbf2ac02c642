import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { LOG_TYPE } from '@shared/log'
import { createTestApp, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'

for (const target of databaseTargets()) {
	describe(`log cleanup on ${target.dialect}`, () => {
		let ferry: TestApp
		beforeEach(async () => {
			ferry = await createTestApp(target)
		})
		afterEach(() => ferry.close())

		test('removes entries created before the target time and answers how many', async () => {
			const root = await ferry.loginRoot()
			const { logs } = ferry.store.tables
			await ferry.store.db.insert(logs).values([
				{ userId: 1, type: LOG_TYPE.consume, createdAt: 1_000 },
				{ userId: 1, type: LOG_TYPE.consume, createdAt: 2_000 },
				{ userId: 1, type: LOG_TYPE.consume, createdAt: 3_000 },
			])
			const answer = await ferry.call('DELETE', '/api/log/?target_timestamp=2500', { as: root })
			expect(answer.body).toEqual({ success: true, message: '', data: 2 })
			const left = await ferry.store.db.select({ createdAt: logs.createdAt }).from(logs)
			expect(left.map((row) => row.createdAt).filter((time) => time < 1_000_000)).toEqual([3_000])
		})

		test('asks for a time when none is given', async () => {
			const root = await ferry.loginRoot()
			const answer = await ferry.call('DELETE', '/api/log/', { as: root })
			expect(answer.status).toBe(400)
			expect(answer.body.message).toBe('please choose log time')
		})
	})
}
