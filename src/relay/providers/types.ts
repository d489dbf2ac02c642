/**
 * What every upstream adaptor declares (design §5). Adaptors are pure: they turn a request into the
 * upstream's URL, headers and body, and never touch the database. Capabilities are optional
 * members; a missing one means "this upstream cannot do that" and the pipeline says so.
 */

/** The endpoints an OpenAI-format client calls. */
export const RELAY_ENDPOINTS = ['chat', 'completions', 'embeddings'] as const
export type RelayEndpoint = (typeof RELAY_ENDPOINTS)[number]

/** What an adaptor is told about the channel it serves: plain data, key already decrypted. */
export interface UpstreamChannel {
	type: number
	baseUrl: string
	key: string
	/** Type-dependent extra value: API version, region, model version, … */
	other: string
	organization: string
}

export interface UpstreamRequest {
	url: string
	headers: Record<string, string>
	body: string
}

/** Same-format traffic: the upstream speaks OpenAI's wire format for these endpoints. */
export interface OpenAIPassThrough {
	endpoints: readonly RelayEndpoint[]
	/** `body` is the client's JSON with the upstream model name already in place. */
	buildRequest(channel: UpstreamChannel, endpoint: RelayEndpoint, body: Record<string, unknown>): UpstreamRequest
}

export interface ProviderAdaptor {
	/** The channel type number (seed 001 §3). */
	type: number
	name: string
	defaultBaseUrl: string
	openai?: OpenAIPassThrough
}
