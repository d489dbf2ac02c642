/**
 * Type 23, Tencent Hunyuan through Tencent Cloud API 3.0: action `ChatCompletions`, version
 * `2023-09-01`, every request signed with TC3-HMAC-SHA256. The key is `AppId|SecretId|SecretKey`.
 */
import { identityOf, type ProviderAdaptor, type UpstreamChannel } from '../types'
import { tencentType } from './capabilities'
import { hunyuanErrorOf, toOpenAIAnswer } from './answer'
import { hunyuanRequest } from './request'
import { tc3Signature } from './signer'
import { hunyuanStreamToOpenAI } from './stream'

const SERVICE = 'hunyuan'
const ACTION = 'ChatCompletions'
const API_VERSION = '2023-09-01'
const CONTENT_TYPE = 'application/json'
const MILLISECONDS_PER_SECOND = 1000

class TencentKeyError extends Error {}

/** `AppId|SecretId|SecretKey`; the AppId is not part of API 3.0 signing. */
function tencentCredentials(key: string) {
	const [, secretId, secretKey] = key.split('|')
	if (!secretId || !secretKey) throw new TencentKeyError('a Tencent key is AppId|SecretId|SecretKey')
	return { secretId: secretId.trim(), secretKey: secretKey.trim() }
}

function signedRequest(channel: UpstreamChannel, payload: string, now: number) {
	const url = new URL(channel.baseUrl)
	const timestamp = Math.floor(now / MILLISECONDS_PER_SECOND)
	const { authorization } = tc3Signature({ ...tencentCredentials(channel.key), service: SERVICE, host: url.host, contentType: CONTENT_TYPE, timestamp, payload })
	return {
		url: `${url.origin}/`,
		headers: {
			'content-type': CONTENT_TYPE,
			authorization,
			'x-tc-action': ACTION,
			'x-tc-version': API_VERSION,
			'x-tc-timestamp': String(timestamp),
			// The region is optional for Hunyuan; a channel may pin one in `other`.
			...(channel.other ? { 'x-tc-region': channel.other } : {}),
		},
		body: payload,
	}
}

export const tencent: ProviderAdaptor = {
	...identityOf(tencentType),
	converted: {
		chat: {
			buildRequest: (channel, body, context) => signedRequest(channel, JSON.stringify(hunyuanRequest(body)), context.now()),
			toOpenAI: toOpenAIAnswer,
			errorOf: hunyuanErrorOf,
			streamToOpenAI: hunyuanStreamToOpenAI,
		},
	},
}
