import { identityOf, type ProviderAdaptor, type RelayEndpoint } from '../types'
import { mistralType } from './capabilities'
import { openAICompatible } from '../openai-compatible'

/**
 * Mistral rejects any field it does not know (422 "Extra inputs are not permitted"), including
 * `stream_options` (its streams report usage anyway), so only the documented fields are sent.
 */
const MISTRAL_FIELDS: Partial<Record<RelayEndpoint, readonly string[]>> = {
	chat: [
		'model', 'messages', 'temperature', 'top_p', 'max_tokens', 'stream', 'stop', 'random_seed', 'response_format',
		'tools', 'tool_choice', 'presence_penalty', 'frequency_penalty', 'n', 'parallel_tool_calls', 'prediction', 'safe_prompt',
	],
	embeddings: ['model', 'input', 'output_dimension', 'output_dtype'],
}

/** OpenAI's names for fields Mistral calls differently. */
const RENAMED: Record<string, string> = { seed: 'random_seed', max_completion_tokens: 'max_tokens', dimensions: 'output_dimension' }

function mistralBody(endpoint: RelayEndpoint, body: Record<string, unknown>): Record<string, unknown> {
	const allowed = MISTRAL_FIELDS[endpoint] ?? []
	const sent: Record<string, unknown> = {}
	for (const [field, value] of Object.entries(body)) {
		const name = RENAMED[field] ?? field
		if (allowed.includes(name) && value !== undefined && !(name in sent && field !== name)) sent[name] = value
	}
	return sent
}

const base = openAICompatible({
	...identityOf(mistralType),
	endpoints: ['chat', 'embeddings'],
})

export const mistral: ProviderAdaptor = {
	...base,
	openai: {
		...base.openai!,
		buildRequest: (channel, endpoint, body) => base.openai!.buildRequest(channel, endpoint, mistralBody(endpoint, body)),
	},
}
