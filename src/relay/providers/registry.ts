/** Channel type → adaptor: one line per provider. */
import type { ProviderAdaptor } from './types'
import { azure } from './azure'
import { custom } from './custom'
import { openai } from './openai'

const ADAPTORS: readonly ProviderAdaptor[] = [
	openai,
	azure,
	custom,
]

const byType = new Map(ADAPTORS.map((adaptor) => [adaptor.type, adaptor]))

export function adaptorFor(type: number): ProviderAdaptor | undefined {
	return byType.get(type)
}
