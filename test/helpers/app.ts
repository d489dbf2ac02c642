/**
 * A Ferry app on a fresh database, driven through `app.handle` as a browser or script would:
 * with the session cookie or access token and the `New-Api-User` header.
 */
import { createApp, type AppInput } from '@/app'
import type { Config } from '@/config'
import type { PasswordHasher } from '@/dependencies'
import { silentLogger } from '@/lib/logger'
import { DEFAULT_ROOT_PASSWORD, ROLE } from '@shared/user'
import type { DatabaseTarget } from './database'

export const testConfig: Config = Object.freeze({
	port: 0,
	host: '127.0.0.1',
	dataDir: ':memory:',
	databaseUrl: '',
	redisUrl: '',
	redisKeyPrefix: 'ferry-test:',
	sessionSecret: 'test-session-secret-test-session-secret',
	cryptoSecret: 'test-crypto-secret-test-crypto-secret-00',
	logLevel: 'error',
	nodeName: 'test',
	maxBodyBytes: 1024 * 1024,
	trustedProxies: [],
	upstreamTimeouts: { connectMs: 5_000, firstByteMs: 10_000, idleMs: 10_000, firstTokenMs: 0 },
	metricsToken: '',
})

/** Real argon2id at a cost low enough that suites creating many users stay quick. */
export const quickPasswords: PasswordHasher = {
	hash: (password) => Bun.password.hash(password, { algorithm: 'argon2id', memoryCost: 1024, timeCost: 1 }),
	verify: (password, hash) => Bun.password.verify(password, hash).catch(() => false),
}

export type Caller = { userId: number; cookie?: string; accessToken?: string }
export type Answer<Data = any> = { status: number; body: { success: boolean; message: string; data?: Data }; headers: Headers }

export async function createTestApp(target: Pick<DatabaseTarget, 'open'>, overrides: Partial<Omit<AppInput, 'store'>> = {}) {
	const store = await target.open()
	const { app, routes, dependencies, relay, redis } = await createApp({ config: testConfig, store, logger: silentLogger, passwords: quickPasswords, ...overrides })

	async function call<Data = any>(method: string, path: string, { body, as, headers = {} }: { body?: unknown; as?: Caller; headers?: Record<string, string> } = {}): Promise<Answer<Data>> {
		const requestHeaders: Record<string, string> = { ...headers }
		if (body !== undefined && typeof body !== 'string') requestHeaders['content-type'] = 'application/json'
		if (as) {
			requestHeaders['new-api-user'] ??= String(as.userId)
			if (as.cookie) requestHeaders.cookie = as.cookie
			if (as.accessToken) requestHeaders.authorization = as.accessToken
		}
		const response = await app.handle(new Request(`http://localhost${path}`, {
			method,
			headers: requestHeaders,
			body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
		}))
		const text = await response.text()
		let parsed: Answer<Data>['body']
		try {
			parsed = JSON.parse(text)
		} catch {
			throw new Error(`${method} ${path} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`)
		}
		return { status: response.status, body: parsed, headers: response.headers }
	}

	async function login(username: string, password: string): Promise<Caller> {
		const answer = await call('POST', '/api/user/login', { body: { username, password } })
		if (!answer.body.success) throw new Error(`login of ${username} failed: ${answer.body.message}`)
		const cookie = answer.headers.get('set-cookie')!.split(';')[0]!
		return { userId: answer.body.data.id, cookie }
	}

	const loginRoot = () => login('root', DEFAULT_ROOT_PASSWORD)

	/** Creates a user (role 1) or admin (role 10) through the API as root, and signs them in. */
	async function createUser(username: string, role: typeof ROLE.user | typeof ROLE.admin = ROLE.user, password = 'password123'): Promise<Caller> {
		const root = await loginRoot()
		const created = await call('POST', '/api/user/', { as: root, body: { username, password, display_name: username } })
		if (!created.body.success) throw new Error(`creating ${username} failed: ${created.body.message}`)
		if (role >= ROLE.admin) await call('POST', '/api/user/manage', { as: root, body: { id: created.body.data.id, action: 'promote' } })
		return login(username, password)
	}

	return { app, routes, dependencies, relay, redis, store, call, login, loginRoot, createUser, close: async () => {
		redis?.close()
		await store.close()
	} }
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>
