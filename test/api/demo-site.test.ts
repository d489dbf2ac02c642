/**
 * A demo site (`DemoSiteEnabled`, src/api/users/demo-site.ts): the super admin's username and
 * password stay as published — refused from their own settings and from the user editor, in the
 * caller's language — while everything else, and every other account, changes as usual.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { inEnglish } from '@shared/messages'
import { ROLE, USER_MESSAGES } from '@shared/user'
import { createTestApp, type Caller, type TestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'

for (const target of databaseTargets()) {
	describe(`a demo site on ${target.dialect}`, () => {
		let ferry: TestApp
		let root: Caller

		beforeEach(async () => {
			ferry = await createTestApp(target)
			root = await ferry.loginRoot()
			await ferry.dependencies.options.set('DemoSiteEnabled', 'true')
		})
		afterEach(() => ferry.close())

		const rootId = async () => (await ferry.call('GET', '/api/user/self', { as: root })).body.data.id as number
		const refusal = { success: false, message: inEnglish(USER_MESSAGES.demoSiteRootLocked) }

		test('refuses the super admin a new password or username in their own settings, in the caller\'s language', async () => {
			expect((await ferry.call('PUT', '/api/user/self', { as: root, body: { password: 'new-password-1', password2: 'new-password-1' } })).body).toEqual(refusal)
			expect((await ferry.call('PUT', '/api/user/self', { as: root, body: { username: 'owner' } })).body).toEqual(refusal)
			const chinese = await ferry.call('PUT', '/api/user/self', { as: root, body: { username: 'owner' }, headers: { 'accept-language': 'zh-CN' } })
			expect(chinese.body.message).toBe(USER_MESSAGES.demoSiteRootLocked)
			// The published sign-in still works.
			expect((await ferry.call('POST', '/api/user/login', { body: { username: 'root', password: '123456' } })).body.success).toBe(true)
		})

		test('lets the super admin change the rest of their account', async () => {
			const answer = await ferry.call('PUT', '/api/user/self', { as: root, body: { display_name: 'Demo Root' } })
			expect(answer.body).toMatchObject({ success: true, data: { display_name: 'Demo Root', username: 'root' } })
		})

		test('refuses the same changes to the super admin through the user editor', async () => {
			const id = await rootId()
			expect((await ferry.call('PUT', '/api/user/', { as: root, body: { id, password: 'new-password-1' } })).body).toEqual(refusal)
			expect((await ferry.call('PUT', '/api/user/', { as: root, body: { id, username: 'owner' } })).body).toEqual(refusal)
			expect((await ferry.call('PUT', '/api/user/', { as: root, body: { id, display_name: 'Still Root' } })).body.success).toBe(true)
		})

		test('leaves other accounts free to change their sign-in', async () => {
			const visitor = await ferry.createUser('visitor', ROLE.admin)
			const answer = await ferry.call('PUT', '/api/user/self', { as: visitor, body: { username: 'visitor2', password: 'visitor-pass-1', password2: 'visitor-pass-1' } })
			expect(answer.body).toMatchObject({ success: true, data: { username: 'visitor2' } })
		})

		test('lets the super admin change their sign-in again once the option is off', async () => {
			await ferry.dependencies.options.set('DemoSiteEnabled', 'false')
			const answer = await ferry.call('PUT', '/api/user/self', { as: root, body: { username: 'owner' } })
			expect(answer.body).toMatchObject({ success: true, data: { username: 'owner' } })
		})
	})
}
