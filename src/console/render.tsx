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
import { languageFromCookieHeader } from '@ui/i18n'
import { type Api, apiContext, createApi, expiredLoginPath } from '@ui/lib/api'
import { Document, type DocumentProps } from '@ui/root'
import type { AssetManifest } from '@/console/assets'

export type HandleApi = (request: Request) => Promise<Response>

/** Loaders on the server call the API in-process, as the visitor: with the cookie of the page request. */
export function createServerApi(request: Request, handleApi: HandleApi): Api {
	const origin = new URL(request.url).origin
	const cookie = request.headers.get('cookie')
	return createApi(
		(path, init) => {
			const headers = new Headers(init.headers)
			if (cookie) headers.set('cookie', cookie)
			return handleApi(new Request(origin + path, { method: init.method, headers, body: init.body }))
		},
		() => {
			throw redirect(expiredLoginPath)
		},
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

export async function renderConsole(request: Request, handler: StaticHandler, handleApi: HandleApi, assets: AssetManifest) {
	const requestContext = new RouterContextProvider(new Map([[apiContext, createServerApi(request, handleApi)]]))
	const context = await handler.query(request, { requestContext })
	if (context instanceof Response) return context

	const documentProps: DocumentProps = {
		stylesheet: `/assets/${assets.styles}`,
		language: languageFromCookieHeader(request.headers.get('cookie')),
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
