import { Elysia, NotFoundError } from 'elysia'
import { fileResponse, loadAssets } from '@/console/assets'
import type { HandleApi, SessionUserId } from '@/console/render'

export type ConsoleDependencies = {
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

const immutable = 'public, max-age=31536000, immutable'

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

export function createConsole(dependencies: ConsoleDependencies): Elysia {

	async function page(request: Request) {
		const pathname = new URL(request.url).pathname
		if (isReserved(pathname)) throw new NotFoundError()
		const assets = await loadAssets()
		const name = pathname.slice(1)
		const publicFile = Object.hasOwn(assets.publicFiles, name) ? assets.publicFiles[name] : undefined
		if (publicFile) return fileResponse(pathname, publicFile, 'public, max-age=86400', request)
		return (await loadRenderer())(request, dependencies, assets)
	}

	// Registered on an untyped instance so that the plugin is a plain `Elysia` (route types stay private).
	const plugin = new Elysia()
	plugin.get('/assets/:name', async ({ params, request }) => {
		const assets = await loadAssets()
		const path = Object.hasOwn(assets.files, params.name) ? assets.files[params.name] : undefined
		if (!path) return new Response('Not Found', { status: 404, headers: { 'content-type': 'text/plain' } })
		return fileResponse(params.name, path, immutable, request)
	})
	plugin.get('/', ({ request }) => page(request))
	plugin.get('/*', ({ request }) => page(request))
	return plugin
}
