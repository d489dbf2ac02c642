import { Elysia } from 'elysia'
import type { Dependencies } from '@/dependencies'

/** Placeholder: filled in by the issue-6 work. */
export function pricingRoutes(dependencies: Dependencies) {
	void dependencies
	return new Elysia({ prefix: '/pricing' })
}
