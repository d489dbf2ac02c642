import type { RouteObject } from 'react-router'
import { authRoutes } from '@ui/features/auth'
import { homeRoute } from '@ui/features/home'
import { notFoundRoute } from '@ui/features/not-found'
import { Root, RootErrorBoundary, rootLoader } from '@ui/root'

/** Shared by the server renderer and the browser router; the root loader's data is the public status. */
export const routes: RouteObject[] = [
	{
		id: 'root',
		path: '/',
		loader: rootLoader,
		Component: Root,
		ErrorBoundary: RootErrorBoundary,
		children: [homeRoute, ...authRoutes, notFoundRoute],
	},
]
