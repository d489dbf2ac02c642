/** Messages every `/api` call may answer: sign-in, permission, limits, bad bodies. */
import { MAX_FORM_FIELDS, MAX_JSON_DEPTH } from '../api-constants'
import { sourceTexts } from './define'

export const API_MESSAGE_ENTRIES = {
	notLoggedIn: ['未登录或登录已过期，请重新登录', 'not logged in or login expired, please log in again'],
	forbidden: ['无权进行此操作', 'insufficient permission for this operation'],
	userHeaderMissing: ['缺少 New-Api-User 请求头，或它与登录的用户不符', 'the New-Api-User header is missing or does not match the logged-in user'],
	tooManyRequests: ['请求次数过多，请稍后再试', 'too many requests, try later'],
	/** The money calls' own limit per user (`api/plugins/money-limit.ts`): `{limit}` calls every `{minutes}` minutes. */
	tooManyMoneyRequests: [
		'充值、支付与兑换操作过于频繁（每 {minutes} 分钟最多 {limit} 次），请稍后再试',
		'too many top-ups, payments and redemptions (at most {limit} every {minutes} minutes), try later',
	],
	serverError: ['服务器内部错误，请联系管理员', 'server internal error, contact the administrator'],
	invalidJson: ['请求体不是有效的 JSON', 'the request body is not valid JSON'],
	jsonTooDeep: [`请求体中数组和对象的嵌套超过 ${MAX_JSON_DEPTH} 层`, `the request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`],
	invalidParameter: ['参数错误', 'invalid parameter'],
	/** A field the schema refused with its own (library) wording: the field's path. */
	invalidField: ['参数错误：{field}', 'invalid parameter: {field}'],
	notFound: ['未找到', 'not found'],
	bodyTooLarge: ['请求体过大', 'the request body is too large'],
	tooManyFields: [`请求体的字段超过 ${MAX_FORM_FIELDS} 个`, `the request body has more than ${MAX_FORM_FIELDS} fields`],
	malformedForm: ['请求体不是有效的表单数据', 'the request body is not valid form data'],
	unsupportedContentType: ['不支持的请求体类型，请以 JSON 发送', 'unsupported content type: send the request body as JSON'],
	nulCharacter: ['请求中含有无法保存的空字符（\\u0000）', 'the request contains the NUL character (\\u0000), which cannot be stored'],
} as const

export const API_MESSAGES = /* @__PURE__ */ sourceTexts(API_MESSAGE_ENTRIES)
