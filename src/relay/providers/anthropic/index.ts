/** Anthropic Claude (type 14): the Messages API, converted from and to OpenAI's chat format. */
import { CHANNEL_TYPE } from '@shared/channel-type'
import type { ProviderAdaptor } from '../types'
import { openAIAnswerFromClaude } from './answer'
import { claudeRequestBody } from './request'
import { openAIStreamFromClaude } from './stream'

export const ANTHROPIC_VERSION = '2023-06-01'
const API_VERSION_PATTERN = /^\d{4}-\d{2}-\d{2}$/

export const anthropic: ProviderAdaptor = {
	type: CHANNEL_TYPE.anthropic,
	name: 'Anthropic Claude',
	defaultBaseUrl: 'https://api.anthropic.com',
	converted: {
		chat: {
			buildRequest(channel, body) {
				return {
					url: `${channel.baseUrl}/v1/messages`,
					headers: {
						'content-type': 'application/json',
						'x-api-key': channel.key,
						// A channel's `other` may name another API version (a date).
						'anthropic-version': API_VERSION_PATTERN.test(channel.other.trim()) ? channel.other.trim() : ANTHROPIC_VERSION,
					},
					body: JSON.stringify(claudeRequestBody(body)),
				}
			},
			toOpenAI: openAIAnswerFromClaude,
			streamToOpenAI: openAIStreamFromClaude,
		},
	},
}
