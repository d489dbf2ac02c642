import { StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { createBrowserRouter, matchRoutes, RouterContextProvider } from 'react-router'
import { RouterProvider } from 'react-router/dom'
import { apiContext } from '@ui/lib/api'
import { browserApi, setApiNavigation } from '@ui/lib/browser-api'
import { Document } from '@ui/root'
import { routes } from '@ui/routes'

/**
 * The server rendered the page with its lazy route modules loaded; the browser must have the same
 * modules before hydrating, or React would render a fallback and report a hydration mismatch.
 */
async function loadMatchedRoutes() {
	const matches = matchRoutes(routes, window.location) ?? []
	await Promise.all(
		matches.map(async ({ route }) => {
			if (typeof route.lazy !== 'function') return
			const module = await route.lazy()
			Object.assign(route, { ...module, lazy: undefined })
		}),
	)
}

await loadMatchedRoutes()

// Without a hydrationData option the router reads window.__staticRouterHydrationData itself and revives
// serialised route errors, which passing the raw object would skip.
const router = createBrowserRouter(routes, {
	getContext: () => new RouterContextProvider(new Map([[apiContext, browserApi]])),
})
setApiNavigation((path) => void router.navigate(path))

hydrateRoot(
	document,
	<StrictMode>
		<Document {...window.__documentProps}>
			<RouterProvider router={router} />
		</Document>
	</StrictMode>,
)
