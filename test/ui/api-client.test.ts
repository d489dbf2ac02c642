/**
 * The console's API client and its error catalogue (docs/specification/console.md#what-the-console-says): the envelope is
 * answered as it is, 401 ends the session and leads to the expired-login page, 429/500/405 carry the
 * catalogue's messages, anything else shows "error" plus the message.
 */
import { describe, expect, test } from 'bun:test'
import { translate } from '@ui/i18n'
import { ApiError, apiMessages, createApi, describeError } from '@ui/lib/api'

function clientAnswering(status: number, body: unknown) {
	const seen: { path: string; method: string; body?: string; headers: Record<string, string> }[] = []
	let unauthorized = 0
	const api = createApi(
		'browser',
		async (path, init) => {
			seen.push({ path, ...init })
			return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
		},
		() => { unauthorized += 1 },
		() => true,
	)
	return { api, seen, unauthorized: () => unauthorized }
}

const english = (key: string, values?: Record<string, string | number>) => translate('en', key, values)

describe('the console API client', () => {
	test('answers a success:false envelope to the caller, whose message becomes the error toast', async () => {
		const { api } = clientAnswering(200, { success: false, message: 'token name is too long', data: null })
		expect(await api.post('/api/token/', { name: 'x' })).toEqual({ success: false, message: 'token name is too long', data: null })
	})

	test('sends JSON bodies with the method asked for', async () => {
		const { api, seen } = clientAnswering(200, { success: true, message: '', data: 1 })
		await api.put('/api/user/', { id: 3 })
		await api.delete('/api/token/3/')
		expect(seen.map(({ method, body }) => [method, body])).toEqual([['PUT', '{"id":3}'], ['DELETE', undefined]])
		expect(seen[0]!.headers['content-type']).toBe('application/json')
	})

	test('ends the session on 401 and throws the expired-login message', async () => {
		const { api, unauthorized } = clientAnswering(401, { success: false, message: 'not logged in', data: null })
		const error = await api.get('/api/user/self').catch((caught: unknown) => caught)
		expect(error).toBeInstanceOf(ApiError)
		expect((error as ApiError).message).toBe(apiMessages.unauthorized)
		expect(unauthorized()).toBe(1)
		expect(describeError(error, english)).toBe('Not logged in or login expired, please log in again')
	})

	test('leaves a 401 to the login form when it asks to handle it itself', async () => {
		const { api, unauthorized } = clientAnswering(401, { success: false, message: 'username or password is wrong', data: null })
		expect((await api.request('/api/user/login', { method: 'POST', handleUnauthorized: false })).message).toBe('username or password is wrong')
		expect(unauthorized()).toBe(0)
	})

	test('maps 429, 500 and 405 to the catalogue messages', async () => {
		for (const [status, message] of [[429, apiMessages.tooManyRequests], [500, apiMessages.serverError], [405, apiMessages.demoSite]] as const) {
			const error = await clientAnswering(status, 'whatever').api.get('/api/status').catch((caught: unknown) => caught)
			expect((error as ApiError).message).toBe(message)
		}
	})

	test('shows "error" plus the message for other failures and network exceptions', async () => {
		const error = await clientAnswering(502, 'bad gateway').api.get('/api/status').catch((caught: unknown) => caught)
		expect(describeError(error, english)).toBe('Error: 502')
		expect(describeError(new TypeError('Failed to fetch'), english)).toBe('Error: Failed to fetch')
	})
})
