import { describe, expect, test } from 'bun:test'
import { ROLE } from '@shared/user'
import { ACCESS_ROLE, ROUTE_POLICY, type Access } from '@/api/route-policy'
import { createTestApp } from '../helpers/app'
import { databaseTargets } from '../helpers/database'

const allowAll = { hit: () => true }
const callers = ['anonymous', 'user', 'admin', 'root'] as const
type CallerKind = (typeof callers)[number]
const callerRole: Record<CallerKind, number> = { anonymous: 0, user: ROLE.user, admin: ROLE.admin, root: ROLE.root }
/** Public callbacks whose answer is another service's protocol (epay reads plain `success`/`fail`), not the envelope. */
const PLAIN_TEXT_ROUTES = new Set(['GET /api/user/epay/notify', 'POST /api/user/epay/notify'])

/** What the policy says a caller of this kind must get: 401 without login, 403 below the role. */
function expectedRefusal(access: Access, kind: CallerKind): 401 | 403 | undefined {
	if (access === 'public') return undefined
	if (kind === 'anonymous') return 401
	return callerRole[kind] < ACCESS_ROLE[access] ? 403 : undefined
}

describe('the route policy', () => {
	test('lists exactly the /api routes the app serves', async () => {
		const ferry = await createTestApp(databaseTargets()[0]!)
		const served = (await ferry.routes())
			.filter((route) => route.path.startsWith('/api/'))
			.map((route) => `${route.method} ${route.path}`)
			.sort()
		await ferry.close()
		expect(served).toEqual(Object.keys(ROUTE_POLICY).sort())
	})
})

for (const target of databaseTargets()) {
	describe(`every /api route on ${target.dialect}`, () => {
		for (const route of PLAIN_TEXT_ROUTES) {
			test(`${route} (public) answers anyone in plain text, never 500`, async () => {
				const ferry = await createTestApp(target, { rateLimiter: allowAll })
				try {
					const [method, path] = route.split(' ') as [string, string]
					const response = await ferry.app.handle(new Request(`http://localhost${path}`, { method }))
					expect(response.status).toBe(200)
					expect(await response.text()).toBe('fail')
				} finally {
					await ferry.close()
				}
			})
		}
		for (const [route, access] of Object.entries(ROUTE_POLICY) as [string, Access][]) {
			if (PLAIN_TEXT_ROUTES.has(route)) continue
			test(`${route} (${access}) answers each caller as the policy says`, async () => {
				const ferry = await createTestApp(target, { rateLimiter: allowAll })
				try {
					await ferry.createUser('someone')
					const [method, path] = route.split(' ') as [string, string]
					for (const kind of callers) {
						// A fresh subject for every caller: some routes end sessions or delete the caller.
						const subject = await ferry.createUser(`s_${kind}`.slice(0, 12))
						const caller = kind === 'anonymous' ? undefined
							: kind === 'root' ? await ferry.loginRoot()
							: await ferry.createUser(`caller_${kind}`, kind === 'admin' ? ROLE.admin : ROLE.user)
						const answer = await ferry.call(method, path.replace(':id', String(subject.userId)), {
							as: caller,
							body: method === 'POST' || method === 'PUT' ? {} : undefined,
						})
						const refusal = expectedRefusal(access, kind)
						if (refusal) expect({ kind, status: answer.status }).toEqual({ kind, status: refusal })
						else expect({ kind, refused: answer.status === 401 || answer.status === 403 }).toEqual({ kind, refused: false })
						expect(answer.status).toBeLessThan(500)
						expect(typeof answer.body.success).toBe('boolean')
						expect(typeof answer.body.message).toBe('string')
						// Undo what the route may have done to the super admin's own session.
						if (kind === 'root') await ferry.store.db.update(ferry.store.tables.users).set({ deletedAt: null, status: 1 })
					}
				} finally {
					await ferry.close()
				}
			})
		}
	})
}

describe('HEAD requests to /api over HTTP on loopback', () => {
	/** Status, headers and body length of a request to the listening app. */
	async function ask(base: string, method: 'GET' | 'HEAD', path: string, headers: Record<string, string> = {}) {
		const response = await fetch(`${base}${path}`, { method, headers })
		const body = await response.arrayBuffer()
		return { status: response.status, type: response.headers.get('content-type'), length: response.headers.get('content-length'), cacheControl: response.headers.get('cache-control'), bodyLength: body.byteLength }
	}

	test('a HEAD to a route loaded on first use, an eager route or an unknown path answers the GET\'s status and headers, with its content-length and no body', async () => {
		const ferry = await createTestApp(databaseTargets()[0]!, { rateLimiter: allowAll })
		ferry.app.listen({ port: 0, hostname: '127.0.0.1' })
		try {
			const base = `http://127.0.0.1:${ferry.app.server!.port}`
			const root = await ferry.loginRoot()
			const signedIn = { cookie: root.cookie!, 'new-api-user': String(root.userId) }
			// The first request for a lazily loaded route is the HEAD itself.
			for (const [path, headers, status] of [['/api/pricing', {}, 200], ['/api/user/self', {}, 401], ['/api/user/self', signedIn, 200], ['/api/status', {}, 200], ['/api/no-such-route', {}, 404]] as const) {
				const head = await ask(base, 'HEAD', path, headers)
				const get = await ask(base, 'GET', path, headers)
				expect({ path, status: get.status }).toEqual({ path, status })
				expect({ path, ...head }).toEqual({ path, ...get, bodyLength: 0 })
				expect(Number(get.length)).toBe(get.bodyLength)
			}
		} finally {
			await ferry.app.stop()
			await ferry.close()
		}
	})

	test('a HEAD to a route loaded on first use is seen from the client\'s address, as its GET is', async () => {
		const buckets: string[] = []
		const ferry = await createTestApp(databaseTargets()[0]!, { rateLimiter: { hit: (bucket: string) => buckets.push(bucket) > 0 } })
		ferry.app.listen({ port: 0, hostname: '127.0.0.1' })
		try {
			const response = await fetch(`http://127.0.0.1:${ferry.app.server!.port}/api/oauth/state`, { method: 'HEAD' })
			expect(response.status).toBe(200)
			expect(buckets.filter((bucket) => bucket.startsWith('oauth:address:'))).toEqual(['oauth:address:127.0.0.1'])
		} finally {
			await ferry.app.stop()
			await ferry.close()
		}
	})
})
