/** What the token calls answer (docs/specification/tokens-and-money.md#api-tokens). */
import { TOKEN_BATCH_NAME_MAX_LENGTH, TOKEN_CREATE_MAX_COUNT, TOKEN_NAME_MAX_LENGTH, TOKEN_NAME_SUFFIX_LENGTH, TOKEN_QUOTA_WINDOWS_MAX } from '../token-constants'
import { sourceTexts } from './define'

export const TOKEN_MESSAGE_ENTRIES = {
	nameRequired: ['令牌名称不能为空', 'token name is required'],
	nameTooLong: [`令牌名称不能超过 ${TOKEN_NAME_MAX_LENGTH} 个字符`, `token name must not be longer than ${TOKEN_NAME_MAX_LENGTH} characters`],
	batchNameTooLong: [
		`批量创建令牌时名称不能超过 ${TOKEN_BATCH_NAME_MAX_LENGTH} 个字符（会追加 ${TOKEN_NAME_SUFFIX_LENGTH} 个字符的后缀）`,
		`when creating several tokens the name must not be longer than ${TOKEN_BATCH_NAME_MAX_LENGTH} characters (a ${TOKEN_NAME_SUFFIX_LENGTH}-character suffix is added)`,
	],
	quotaNotInteger: ['额度必须是整数', 'quota must be an integer'],
	quotaNegative: ['额度不能为负数', 'quota cannot be negative'],
	expiryFormat: ['过期时间格式错误', 'expiry format error'],
	expiryPast: ['过期时间必须为 -1（永不过期）或将来的时间', 'the expiry must be -1 (never) or a time in the future'],
	countInvalid: ['创建数量必须是正整数', 'creation count must be a positive integer'],
	countTooLarge: [`一次最多创建 ${TOKEN_CREATE_MAX_COUNT} 个令牌`, `at most ${TOKEN_CREATE_MAX_COUNT} tokens can be created at once`],
	allowIpInvalid: ['不是有效的 IP 地址或 CIDR 网段：{line}', 'not a valid IP address or CIDR range: {line}'],
	concurrencyLimitInvalid: ['并发上限须为 0 到 100000 之间的整数（0 表示不限）', 'the concurrency limit must be a whole number from 0 to 100000 (0: no limit)'],
	groupUnusable: ['你无法使用该分组', 'this group is not available to you'],
	quotaWindowCount: [`令牌最多设置 ${TOKEN_QUOTA_WINDOWS_MAX} 个额度窗口`, `a token has at most ${TOKEN_QUOTA_WINDOWS_MAX} spend windows`],
	quotaWindowRepeated: ['额度窗口的时长不能重复', 'two spend windows cannot have the same length'],
	statusInvalid: ['令牌只能启用或禁用', 'a token can only be enabled or disabled'],
	expiredCannotEnable: ['令牌已过期，无法启用，请先修改过期时间', 'the token has expired and cannot be enabled; change its expiry first'],
	exhaustedCannotEnable: ['令牌额度已用尽，无法启用，请先修改额度', 'the token quota is used up and it cannot be enabled; change its quota first'],
	notFound: ['令牌不存在', 'token not found'],
} as const

export const TOKEN_MESSAGES = /* @__PURE__ */ sourceTexts(TOKEN_MESSAGE_ENTRIES)
