import { renderToReadableStream } from 'react-dom/server'
import {
	createStaticRouter,
	isRouteErrorResponse,
	redirect,
	RouterContextProvider,
	type StaticHandler,
	type StaticHandlerContext,
	StaticRouterProvider,
} from 'react-router'
import { languageOfRequest } from '@ui/i18n'
import { type Api, apiContext, createApi, expiredLoginPath } from '@ui/lib/api'
import { themeFromCookieHeader } from '@ui/lib/theme'
import { serverTimeZone, timeZoneFromCookieHeader } from '@ui/lib/time-zone'
import { Document, type DocumentProps } from '@ui/root'
import { hasSessionCookie } from '@/auth/session'
import type { AssetManifest } from '@/console/assets'

export type HandleApi = (request: Request) => Promise<Response>
/** The user id of a valid session cookie among the headers, if any. */
export type SessionUserId = (headers: Headers) => Promise<number | undefined>

/**
 * GETs with side effects: a page render never makes them, even if a loader asked (a cross-site link
 * to a console page carries the SameSite=Lax cookie, so renders must stay read-only).
 */
const sideEffectGets = new Set(['/api/user/token', '/api/user/logout'])

/**
 * Loaders on the server call the API in-process, as the visitor: with the cookie of the page request
 * and, for reads only, the New-Api-User header of its session (the browser would send it too).
 */
function createServerApi(request: Request, handleApi: HandleApi, sessionUserId: SessionUserId): Api {
	const origin = new URL(request.url).origin
	const cookie = request.headers.get('cookie')
	// Messages are worded in the page's language, as the browser's calls ask for it.
	const language = languageOfRequest(request.headers)
	let userId: Promise<number | undefined> | undefined
	const sessionUser = () => (userId ??= sessionUserId(request.headers))
	return createApi(
		'server',
		async (path, init) => {
			if (init.method !== 'GET' || sideEffectGets.has(path.split('?')[0]!)) {
				return Response.json({ success: false, message: 'not available while rendering', data: null }, { status: 400 })
			}
			const headers = new Headers(init.headers)
			if (cookie) headers.set('cookie', cookie)
			headers.set('accept-language', language)
			const id = await sessionUser()
			if (id !== undefined) headers.set('new-api-user', String(id))
			return handleApi(new Request(origin + path, { method: init.method, headers, body: init.body }))
		},
		() => {
			throw redirect(expiredLoginPath)
		},
		() => hasSessionCookie(request.headers),
	)
}

/** JSON for an inline script: `<` is escaped so data can never close the script element. */
function scriptValue(value: unknown) {
	return JSON.stringify(value).replace(/</g, '\\u003c')
}

/** Route errors in the shape react-router's browser router revives; server error details stay on the server. */
function serializeErrors(errors: StaticHandlerContext['errors']) {
	if (!errors) return null
	const serialized: Record<string, unknown> = {}
	for (const [routeId, error] of Object.entries(errors)) {
		serialized[routeId] = isRouteErrorResponse(error)
			? { ...error, __type: 'RouteErrorResponse' }
			: { message: 'Unexpected Server Error', __type: 'Error' }
	}
	return serialized
}

export async function renderConsole(request: Request, handler: StaticHandler, handleApi: HandleApi, sessionUserId: SessionUserId, assets: AssetManifest) {
	const requestContext = new RouterContextProvider(new Map([[apiContext, createServerApi(request, handleApi, sessionUserId)]]))
	const context = await handler.query(request, { requestContext })
	if (context instanceof Response) return context

	const cookie = request.headers.get('cookie')
	const documentProps: DocumentProps = {
		stylesheet: `/assets/${assets.styles}`,
		language: languageOfRequest(request.headers),
		theme: themeFromCookieHeader(cookie),
		timeZone: timeZoneFromCookieHeader(cookie) ?? serverTimeZone(),
	}
	const hydrationData = {
		loaderData: context.loaderData,
		actionData: context.actionData,
		errors: serializeErrors(context.errors),
	}
	const router = createStaticRouter(handler.dataRoutes, context)
	const stream = await renderToReadableStream(
		<Document {...documentProps}>
			<StaticRouterProvider router={router} context={context} hydrate={false} />
		</Document>,
		{
			bootstrapModules: [`/assets/${assets.client}`],
			bootstrapScriptContent: `window.__staticRouterHydrationData=${scriptValue(hydrationData)};window.__documentProps=${scriptValue(documentProps)}`,
			onError(error) {
				console.error('console render failed', error)
			},
		},
	)
	return new Response(stream, {
		status: context.statusCode,
		headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
	})
}
