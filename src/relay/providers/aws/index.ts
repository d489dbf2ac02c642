/**
 * Type 33, Claude on Amazon Bedrock: `POST /model/{modelId}/invoke` (and
 * `/invoke-with-response-stream`) on `bedrock-runtime.{region}.amazonaws.com`, Claude's Messages
 * body, every request signed with SigV4 for the service `bedrock`. Answers are Claude's own; the
 * stream is an AWS event stream of Claude events.
 */
import { CHANNEL_TYPE } from '@shared/channel-type'
import type { AdaptorContext, ProviderAdaptor, UpstreamChannel } from '../types'
import { openAIAnswerFromClaude } from '../anthropic/answer'
import { parseAwsKey } from './credentials'
import { bedrockModelId } from './model-id'
import { withInlineMedia } from './media'
import { bedrockClaudeBody } from './request'
import { sha256Hex, signRequest, uriEncode } from './signer'
import { openAIStreamFromBedrock } from './stream'

const SERVICE = 'bedrock'
const CONTENT_TYPE = 'application/json'
const EVENT_STREAM_TYPE = 'application/vnd.amazon.eventstream'

const bedrockHost = (region: string) => `https://bedrock-runtime.${region}.amazonaws.com`

async function signedRequest(channel: UpstreamChannel, body: Record<string, unknown>, context: AdaptorContext) {
	const { credentials, region } = parseAwsKey(channel.key)
	const stream = body.stream === true
	const action = stream ? 'invoke-with-response-stream' : 'invoke'
	// A base URL on the channel (a proxy, a VPC endpoint) replaces the regional host.
	const base = (channel.baseUrl || bedrockHost(region)).replace(/\/+$/, '')
	const url = new URL(`${base}/model/${uriEncode(bedrockModelId(String(body.model)))}/${action}`)
	const payload = JSON.stringify(await withInlineMedia(bedrockClaudeBody(body), context))
	const signed = signRequest({
		method: 'POST',
		url,
		headers: { 'content-type': CONTENT_TYPE, 'x-amz-content-sha256': sha256Hex(payload) },
		body: payload,
		region,
		service: SERVICE,
		credentials,
		now: context.now(),
	})
	return {
		url: url.href,
		headers: { ...signed.headers, accept: stream ? EVENT_STREAM_TYPE : CONTENT_TYPE },
		body: payload,
	}
}

export const aws: ProviderAdaptor = {
	type: CHANNEL_TYPE.aws,
	name: 'AWS Claude',
	// The host follows the region in the key.
	defaultBaseUrl: '',
	keyFormat: 'Ak|Sk|Region',
	// Anthropic's names, which `model-id.ts` maps to Bedrock's ids.
	defaultModels: ['claude-opus-4-6', 'claude-sonnet-4-6', 'claude-haiku-4-5-20251001', 'claude-sonnet-4-5-20250929', 'claude-sonnet-4-20250514'],
	converted: {
		chat: {
			buildRequest: signedRequest,
			toOpenAI: openAIAnswerFromClaude,
			streamToOpenAI: openAIStreamFromBedrock,
		},
	},
}
