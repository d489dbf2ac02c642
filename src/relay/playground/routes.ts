import { Elysia } from 'elysia'
import type { Dependencies } from '@/dependencies'
import type { RelayServices } from '../pipeline/services'

/** Placeholder: `POST /pg/chat/completions` arrives with the playground work. */
export function playgroundRoutes(dependencies: Dependencies, relay: RelayServices) {
	void dependencies
	void relay
	return new Elysia({ prefix: '/pg' })
}
