/**
 * Anthropic Claude (type 14): the Messages API. OpenAI-format calls convert from and to OpenAI's
 * chat format; Claude-format calls pass through with the client's own body and beta headers.
 */
import { openAIModelNames } from '../openai-compatible/model-list'
import { identityOf, type ProviderAdaptor, type UpstreamChannel } from '../types'
import { anthropicType } from './capabilities'
import { openAIAnswerFromClaude } from './answer'
import { claudeRequestBody } from './request'
import { openAIStreamFromClaude } from './stream'

const ANTHROPIC_VERSION = '2023-06-01'
const API_VERSION_PATTERN = /^\d{4}-\d{2}-\d{2}$/

/** A channel's `other` may name another API version (a date). */
const channelVersion = (channel: UpstreamChannel) => (API_VERSION_PATTERN.test(channel.other.trim()) ? channel.other.trim() : ANTHROPIC_VERSION)

export const anthropic: ProviderAdaptor = {
	...identityOf(anthropicType),
	// `GET /v1/models` answers `{data: [{id, display_name}], has_more}`, like OpenAI's list.
	modelList: {
		request: (channel) => ({ url: `${channel.baseUrl}/v1/models`, headers: { 'x-api-key': channel.key, 'anthropic-version': ANTHROPIC_VERSION } }),
		names: openAIModelNames,
	},
	converted: {
		chat: {
			buildRequest(channel, body, _context, extras) {
				return {
					url: `${channel.baseUrl}/v1/messages`,
					headers: { 'content-type': 'application/json', 'x-api-key': channel.key, 'anthropic-version': channelVersion(channel) },
					body: JSON.stringify(claudeRequestBody(body, extras)),
				}
			},
			toOpenAI: openAIAnswerFromClaude,
			streamToOpenAI: openAIStreamFromClaude,
		},
	},
	sameFormat: {
		claude: {
			buildRequest(channel, call) {
				// The client wrote the body for its own API version and betas, so those travel with it.
				return {
					url: `${channel.baseUrl}/v1/messages${call.search}`,
					headers: { 'anthropic-version': channelVersion(channel), ...call.headers, 'content-type': 'application/json', 'x-api-key': channel.key },
					body: call.body,
				}
			},
			// Anthropic's own count (`POST /v1/messages/count_tokens`: the Messages request's prompt fields, `{input_tokens}` back), free at Anthropic.
			countRequest(channel, call) {
				return {
					url: `${channel.baseUrl}/v1/messages/count_tokens${call.search}`,
					headers: { 'anthropic-version': channelVersion(channel), ...call.headers, 'content-type': 'application/json', 'x-api-key': channel.key },
				}
			},
		},
	},
}
