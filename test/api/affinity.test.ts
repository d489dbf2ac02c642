import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { AFFINITY_MESSAGES } from '@shared/affinity'
import { inEnglish } from '@shared/messages'
import { sessionId } from '@/lib/session-affinity'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'

for (const target of databaseTargets()) {
	describe(`session affinity for the super admin on ${target.dialect}`, () => {
		let ferry: TestApp
		let root: Caller
		beforeEach(async () => {
			ferry = await createTestApp(target)
			root = await ferry.loginRoot()
		})
		afterEach(() => ferry.close())

		const purge = (body: unknown, as = root) => ferry.call('POST', '/api/affinity/purge', { as, body })

		test('purging one session, named as the client sent it with its user and model, forgets that one only', async () => {
			const { affinity } = ferry.dependencies
			affinity.set(sessionId(7, 'gpt-5', 'conversation-a'), { channelId: 1, keyIndex: 2 })
			affinity.set(sessionId(7, 'gpt-5', 'conversation-b'), { channelId: 1, keyIndex: 3 })
			const answer = await purge({ user_id: 7, model: 'gpt-5', session: 'conversation-a' })
			expect(answer.body).toMatchObject({ success: true, data: { purged: 1 } })
			expect(await affinity.get(sessionId(7, 'gpt-5', 'conversation-a'))).toBeUndefined()
			expect(await affinity.get(sessionId(7, 'gpt-5', 'conversation-b'))).toEqual({ channelId: 1, keyIndex: 3 })
		})

		test('purging with no session named forgets every session', async () => {
			const { affinity } = ferry.dependencies
			affinity.set('one', { channelId: 1, keyIndex: 0 })
			affinity.set('two', { channelId: 2, keyIndex: 0 })
			expect((await purge({})).body).toMatchObject({ success: true, data: { purged: 2 } })
			expect(await affinity.get('one')).toBeUndefined()
		})

		test('a session named without its user and model is refused', async () => {
			const answer = await purge({ session: 'conversation-a' })
			expect(answer.status).toBe(400)
			expect(answer.body).toEqual({ success: false, message: inEnglish(AFFINITY_MESSAGES.sessionNeedsUserAndModel) })
		})

		test('an admin who is not the super admin may not purge', async () => {
			const admin = await ferry.createUser('operator', 10)
			expect((await purge({}, admin)).status).toBe(403)
		})
	})
}
