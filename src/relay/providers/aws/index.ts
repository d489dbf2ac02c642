/**
 * Type 33, Claude on Amazon Bedrock: `POST /model/{modelId}/invoke` (and
 * `/invoke-with-response-stream`) on `bedrock-runtime.{region}.amazonaws.com`, Claude's Messages
 * body, every request signed with SigV4 for the service `bedrock`. Answers are Claude's own; the
 * stream is an AWS event stream of Claude events.
 */
import { identityOf, type AdaptorContext, type ProviderAdaptor, type UpstreamChannel } from '../types'
import { awsType } from './capabilities'
import { openAIAnswerFromClaude } from '../anthropic/answer'
import { parseAwsKey } from './credentials'
import { bedrockModelId } from './model-id'
import { withInlineMedia } from './media'
import { bedrockBodyFromClaude, bedrockClaudeBody } from './request'
import { sha256Hex, signRequest, uriEncode } from './signer'
import { claudeEventsFromBedrock, openAIStreamFromBedrock } from './stream'

const SERVICE = 'bedrock'
const CONTENT_TYPE = 'application/json'
const EVENT_STREAM_TYPE = 'application/vnd.amazon.eventstream'

const bedrockHost = (region: string) => `https://bedrock-runtime.${region}.amazonaws.com`

/** Bedrock's signed `invoke` request for a model and a Bedrock body (URL media sources still to download). */
async function signedRequest(channel: UpstreamChannel, call: { model: string; stream: boolean; body: Record<string, unknown> }, context: AdaptorContext) {
	const { credentials, region } = parseAwsKey(channel.key)
	const stream = call.stream
	const action = stream ? 'invoke-with-response-stream' : 'invoke'
	// A base URL on the channel (a proxy, a VPC endpoint) replaces the regional host.
	const base = (channel.baseUrl || bedrockHost(region)).replace(/\/+$/, '')
	const url = new URL(`${base}/model/${uriEncode(bedrockModelId(call.model))}/${action}`)
	const payload = JSON.stringify(await withInlineMedia(call.body, context))
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
	...identityOf(awsType),
	converted: {
		chat: {
			buildRequest: (channel, body, context, extras) => signedRequest(channel, { model: String(body.model), stream: body.stream === true, body: bedrockClaudeBody(body, extras) }, context),
			toOpenAI: openAIAnswerFromClaude,
			streamToOpenAI: openAIStreamFromBedrock,
		},
	},
	// A Claude client's own body, with only what Bedrock's wire needs changed (request.ts); answers are Claude's.
	sameFormat: {
		claude: {
			buildRequest(channel, call, context) {
				const betas = (call.headers['anthropic-beta'] ?? '').split(',').map((beta) => beta.trim()).filter(Boolean)
				return signedRequest(channel, { model: call.model, stream: call.stream, body: bedrockBodyFromClaude(call.value, betas) }, context)
			},
			streamEvents: claudeEventsFromBedrock,
		},
	},
}
