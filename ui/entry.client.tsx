import { StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { createBrowserRouter, RouterContextProvider } from 'react-router'
import { RouterProvider } from 'react-router/dom'
import { apiContext } from '@ui/lib/api'
import { browserApi, setApiNavigation } from '@ui/lib/browser-api'
import { Document } from '@ui/root'
import { routes } from '@ui/routes'

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
