/** Channel type → adaptor: one line per provider. */
import type { ProviderAdaptor } from './types'
import { azure } from './azure'
import { custom } from './custom'
import { openai } from './openai'
// (provider imports: keep one import line per provider, grouped like the list below)

const ADAPTORS: readonly ProviderAdaptor[] = [
	openai,
	azure,
	custom,
	// OpenAI-compatible upstreams
	// Anthropic Claude
	// Google Gemini, PaLM, Vertex
	// signed Chinese upstreams (Baidu, Zhipu, Tencent, iFlytek)
]

const byType = new Map(ADAPTORS.map((adaptor) => [adaptor.type, adaptor]))

export function adaptorFor(type: number): ProviderAdaptor | undefined {
	return byType.get(type)
}
