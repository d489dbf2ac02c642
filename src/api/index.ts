/**
 * The management API under `/api`, answering in the envelope. What must answer at once is built at
 * start: the public reads of `./status` (`/api/status` is what load balancers and the bench poll).
 * Every other route is in `./routes.ts`, which is imported and built on the first request for one
 * and then handed that request and every later one (docs/performance.md, "Idle memory");
 * only that first request waits for the import.
 *
 * The error envelope is a global hook, so it also answers the app's other failures (an unknown
 * path, a relay route's refused body): it is mounted here at start, and again in `./routes.ts` for
 * the failures of the routes there.
 */
import { Elysia } from 'elysia'
import type { Dependencies } from '@/dependencies'
import type { RequestPeer } from '@/lib/client-address'
import { envelopeErrors } from './plugins/envelope'
import { localizeAnswer } from './plugins/localize'
import { noStore } from './plugins/no-store'
import { parseApiBody } from './plugins/request-body'
import { statusRoutes } from './status'

type ManagementRoute = { method: string; path: string }
type ManagementRoutes = { handle(request: Request): Promise<Response>; readonly routes: readonly ManagementRoute[] }

const isManagementPath = (path: string) => path === '/api' || path.startsWith('/api/')

/** `server`: the app's listening server, through which handlers read the client's address. */
export function createApi(dependencies: Dependencies, { server }: { server: () => RequestPeer }) {
	let loading: Promise<ManagementRoutes> | undefined
	/** The GET a HEAD request is answered as (see `answer`), to the request that came: the peer knows only that one. */
	const headRequests = new WeakMap<Request, Request>()
	const load = () => loading ??= import('./routes').then(({ managementRoutes }) => {
		const routes = managementRoutes(dependencies)
		// What Elysia gives a mounted plugin (a protected method): the server of the app it is mounted on.
		const mounted: { getServer: () => RequestPeer } = routes as never
		mounted.getServer = () => {
			const peer = server()
			return peer && { requestIP: (request: Request) => peer.requestIP(headRequests.get(request) ?? request) }
		}
		return routes
	}, (error: unknown) => {
		loading = undefined
		throw error
	})

	/**
	 * Elysia answers a HEAD request by running the GET route and measuring its body. Here the routes
	 * would do that themselves and hand back an answer without a body, which would then be measured
	 * as empty (`content-length: 0`): they are asked the GET instead, and its body is measured and
	 * dropped once, out here.
	 */
	const answer = async ({ request }: { request: Request }) => {
		const routes = await load()
		if (request.method !== 'HEAD') return routes.handle(request)
		const asGet = new Request(request.url, { method: 'GET', headers: request.headers, signal: request.signal })
		headRequests.set(asGet, request)
		return routes.handle(asGet)
	}
	const plugin = new Elysia({ prefix: '/api' })
		.use(envelopeErrors(dependencies.logger))
		// Ahead of the body parser: the routes read the body themselves. The router prefers every
		// specific route below over these; GET on its own, or the console's `GET /*` would be preferred.
		.get('/*', answer, { parse: 'none', detail: { hide: true } })
		.all('/*', answer, { parse: 'none', detail: { hide: true } })
		.onParse(parseApiBody(dependencies.config.maxBodyBytes))
		.onAfterHandle(noStore)
		.onAfterHandle(localizeAnswer)
		.use(statusRoutes(dependencies))

	/**
	 * The app's routes with the whole management API's in place of those above, in the order they
	 * had when the API was built at start (the OpenAPI document lists them); loads the API.
	 */
	async function withManagementRoutes<Route extends { path: string }>(appRoutes: readonly Route[]): Promise<readonly (Route | ManagementRoute)[]> {
		const management = (await load()).routes
		const first = appRoutes.findIndex((route) => isManagementPath(route.path))
		const others = appRoutes.filter((route) => !isManagementPath(route.path))
		if (first === -1) return [...others, ...management]
		return [...others.slice(0, first), ...management, ...others.slice(first)]
	}

	return { plugin, withManagementRoutes }
}
