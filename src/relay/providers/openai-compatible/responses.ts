/**
 * OpenAI's Responses API spoken natively (same-format traffic): a Responses client's body
 * goes upstream with only the model mapped, its answer (whole or streamed) comes back as it came, and
 * the objects the upstream keeps (`GET/DELETE /responses/{id}`, `/input_items`, `/cancel`) are
 * reached under the same URL, as is a compaction (`POST /responses/compact`: the request's `path`).
 */
import type { SameFormatPassThrough, UpstreamChannel } from '../types'

export interface ResponsesRoute {
	/** The create URL (`…/v1/responses`); kept responses are under it. */
	url(channel: UpstreamChannel): string
	/** The model name the upstream expects in the body, when it is not the mapped name (Azure's deployment). */
	model?(model: string): string
}

export function responsesPassThrough(route: ResponsesRoute, headers: (channel: UpstreamChannel) => Record<string, string>): SameFormatPassThrough {
	return {
		buildRequest(channel, call) {
			const model = route.model?.(call.model) ?? call.model
			return {
				url: `${route.url(channel)}${call.path ?? ''}`,
				headers: { 'content-type': 'application/json', ...headers(channel) },
				// The client's bytes, model mapped (NativeRequest: its text, or its value with the model replaced); re-serialised only for another body model.
				body: model === call.model ? call.body : JSON.stringify({ ...call.value, model }),
			}
		},
		storedRequest(channel, request) {
			return { method: request.method, url: `${route.url(channel)}${request.path}${request.search}`, headers: headers(channel) }
		},
	}
}
