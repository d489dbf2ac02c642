/**
 * The relay's own refusals that the console's playground meets (issue 16). A relay error keeps
 * its English for API clients (`/v1`: the provider's English shapes); the playground, a console
 * feature, answers the same error worded in the console's language. The English here is exactly
 * what API clients have always read. An upstream's own message is never in this list.
 */
import { plural } from '../plural'
import { sourceTexts } from './define'

export const RELAY_MESSAGE_ENTRIES = {
	accessTokenRefused: ['演练场只接受控制台会话，不接受令牌', 'the playground accepts only a console session, not a token'],
	notSignedIn: ['请先登录控制台再使用演练场', 'sign in to the console to use the playground'],
	userHeaderMismatch: ['New-Api-User 请求头必须是当前登录用户的 ID', 'the New-Api-User header must carry the id of the signed-in user'],
	playgroundUserDisabled: ['该用户已被禁用', 'this user is disabled'],
	groupInvalid: ['group：应为分组名称', 'group: expected a group name'],
	groupNotAllowed: ['该用户不能使用分组 {group}', 'the group {group} is not available to this user'],
	modelUnpriced: ['模型 {model} 未设置价格，请联系管理员设置其倍率或价格', 'the model {model} has no price set; ask the administrator to set its ratio or price'],
	streaming: ['流式 {endpoint}', 'streaming {endpoint}'],
	noChannelSupports: ['没有提供模型 {model} 的渠道支持 {what}', 'no channel serving the model {model} supports {what}'],
	channelTypeUnsupported: ['该渠道类型不支持 {what}', 'this channel type does not support {what}'],
	promptTooLong: [
		'提示词有 {tokens} 个 token，超过了模型 {model} 的可用渠道所能接受的上限（最多 {limit} 个）',
		'the prompt has {tokens} tokens, more than any available channel for the model {model} accepts (at most {limit})',
	],
	noChannel: ['分组 {group} 下没有模型 {model} 的可用渠道', 'no available channels for model {model} in group {group}'],
	insufficientUserQuota: ['用户额度不足', 'insufficient user quota'],
	modelNotFound: ['模型 {model} 不存在，或你无权使用', 'the model {model} does not exist or you do not have access to it'],
	upstreamUnavailable: ['上游服务没有应答', 'the upstream service did not answer'],
	internal: ['网关处理请求失败', 'the gateway failed to handle the request'],
	credentialsRejected: ['上游拒绝了渠道的凭据', 'the upstream rejected the channel credentials'],
	malformedAnswer: ['上游返回了格式错误的应答', 'the upstream sent a malformed answer'],
	sensitivePrompt: ['检测到敏感词：{words}', 'sensitive words detected: {words}'],
	/** The request rate limits (ModelRequestRateLimit*): all requests, or successful ones, in a window of one or more minutes. */
	requestLimitMinute: ['请求次数过多，请稍后再试（1 分钟内最多 {limit} 次请求）', plural('limit', { one: 'too many requests, try later (at most {limit} request in 1 minute)', other: 'too many requests, try later (at most {limit} requests in 1 minute)' })],
	requestLimitMinutes: ['请求次数过多，请稍后再试（{minutes} 分钟内最多 {limit} 次请求）', plural('limit', { one: 'too many requests, try later (at most {limit} request in {minutes} minutes)', other: 'too many requests, try later (at most {limit} requests in {minutes} minutes)' })],
	successLimitMinute: ['请求次数过多，请稍后再试（1 分钟内最多 {limit} 次成功请求）', plural('limit', { one: 'too many requests, try later (at most {limit} successful request in 1 minute)', other: 'too many requests, try later (at most {limit} successful requests in 1 minute)' })],
	successLimitMinutes: ['请求次数过多，请稍后再试（{minutes} 分钟内最多 {limit} 次成功请求）', plural('limit', { one: 'too many requests, try later (at most {limit} successful request in {minutes} minutes)', other: 'too many requests, try later (at most {limit} successful requests in {minutes} minutes)' })],
	/** Call limits (relay/edge/request-limits.ts): `{level}` names whose limit it is. */
	rpmExceeded: ['{level}每分钟最多 {limit} 次请求，请 {seconds} 秒后再试', plural('limit', { one: '{level} allows at most {limit} request a minute; try again in {seconds} s', other: '{level} allows at most {limit} requests a minute; try again in {seconds} s' })],
	tpmExceeded: ['{level}每分钟最多使用 {limit} 个 token，请 {seconds} 秒后再试', plural('limit', { one: '{level} allows at most {limit} token a minute; try again in {seconds} s', other: '{level} allows at most {limit} tokens a minute; try again in {seconds} s' })],
	rpdExceeded: ['{level}每天最多 {limit} 次请求，请 {seconds} 秒后再试', plural('limit', { one: '{level} allows at most {limit} request a day; try again in {seconds} s', other: '{level} allows at most {limit} requests a day; try again in {seconds} s' })],
	concurrencyExceeded: ['{level}最多同时进行 {limit} 个请求', plural('limit', { one: '{level} allows at most {limit} request at once', other: '{level} allows at most {limit} requests at once' })],
	limitLevelToken: ['此令牌', 'this API token'],
	limitLevelUser: ['此用户', 'this user'],
	limitLevelGroup: ['分组 {group}', 'the group {group}'],
	limitLevelModel: ['模型 {model}', 'the model {model}'],
	/** Names no word: the answer is withheld so that the client does not learn what it said. */
	sensitiveAnswer: ['回答中检测到敏感词，回答未返回', 'sensitive words detected in the answer; the answer was withheld'],
} as const

export const RELAY_MESSAGES = /* @__PURE__ */ sourceTexts(RELAY_MESSAGE_ENTRIES)
