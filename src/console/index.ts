import { Elysia, NotFoundError } from 'elysia'
import { loadAssets } from '@/console/assets'
import type { HandleApi, SessionUserId } from '@/console/render'
import { consoleFiles } from '@/console/static-files'

type ConsoleDependencies = {
	/** Answers an /api request in-process; server-side loaders call it with the visitor's cookie. */
	handleApi: HandleApi
	/** The user of a valid session cookie: server-side loaders act as that user. */
	sessionUserId: SessionUserId
}

/** Paths owned by the API and the relay. Elysia prefers their specific routes over the console's `/*`; the
 * console gives unknown ones back as Elysia's NOT_FOUND so that the app's own 404 answers them. */
const reservedPrefixes = ['/api', '/v1', '/v1beta', '/pg', '/mj', '/suno']

function isReserved(pathname: string) {
	return reservedPrefixes.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`))
}

/**
 * React, the router and the pages load on the first page view: a gateway that only relays never
 * pays their memory (about 20 MB).
 */
type Renderer = (request: Request, dependencies: ConsoleDependencies, assets: Awaited<ReturnType<typeof loadAssets>>) => Promise<Response>
let renderer: Promise<Renderer> | undefined
function loadRenderer() {
	renderer ??= Promise.all([import('react-router'), import('@ui/routes'), import('@/console/render')]).then(([router, ui, module]) => {
		const handler = router.createStaticHandler(ui.routes)
		const render: Renderer = (request, dependencies, assets) => module.renderConsole(request, handler, dependencies.handleApi, dependencies.sessionUserId, assets)
		return render
	})
	return renderer
}

/** Async because the static plugin lists its folders when it is made. */
export async function createConsole(dependencies: ConsoleDependencies): Promise<Elysia> {

	async function page(request: Request) {
		if (isReserved(new URL(request.url).pathname)) throw new NotFoundError()
		return (await loadRenderer())(request, dependencies, await loadAssets())
	}

	// Registered on an untyped instance so that the plugin is a plain `Elysia` (route types stay private).
	const plugin = new Elysia()
	plugin.use(await consoleFiles())
	plugin.get('/', ({ request }) => page(request))
	plugin.get('/*', ({ request }) => page(request))
	return plugin
}
