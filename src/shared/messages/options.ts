/** What saving an option answers when its value is refused (docs/specification/accounts-and-settings.md#calls), and the ratio reset. */
import { sourceTexts } from './define'

export const OPTION_MESSAGE_ENTRIES = {
	unknownKey: ['未知的设置项：{key}', 'unknown option: {key}'],
	serverAddressFirst: ['请先填写服务器地址', 'fill in server address first'],
	/** `{reason}` is one of the value rules below. */
	valueRefused: ['{key} 的值无效：{reason}', '{key} {reason}'],
	notBoolean: ['必须是 true 或 false', 'must be true or false'],
	notNumber: ['请输入数字', 'please enter a number'],
	notWholeNumber: ['必须是整数', 'must be a whole number'],
	belowMinimum: ['不能小于 {min}', 'must not be less than {min}'],
	aboveMaximum: ['不能大于 {max}', 'must not be more than {max}'],
	blank: ['不能为空', 'must not be blank'],
	tooLong: ['不能超过 {max} 个字符', 'must be at most {max} characters'],
	notAChoice: ['必须是 {choices} 之一', 'must be one of {choices}'],
	notJson: ['不是有效的 JSON 字符串', 'is not a valid JSON string'],
	/** `{detail}`: the schema's own wording of the first problem, in the reader's language. */
	jsonShape: ['不是有效的 JSON 字符串：{detail}', 'is not a valid JSON string: {detail}'],
	/** A ratio or price map: `{max}` is the largest number an entry may be, `{name}` the first entry that is not one. */
	numberMapEntry: ['必须把每个名称映射为 0 到 {max} 之间的数字；“{name}”不符合', 'must map each name to a number from 0 to {max}; "{name}" does not'],
	/** `{max}`: the largest count a limit may be; `{example}`: a valid value. */
	rateLimitGroups: ['必须把每个分组映射为 [总请求数, 成功请求数]，两个 0 到 {max} 的整数（例如 {example}）', 'must map each group to [total requests, successful requests], two whole numbers from 0 to {max} (like {example})'],
	rateLimitGroupRefused: ['必须把每个分组映射为 [总请求数, 成功请求数]，两个 0 到 {max} 的整数（例如 {example}）；分组“{group}”不符合', 'must map each group to [total requests, successful requests], two whole numbers from 0 to {max} (like {example}); the group "{group}" does not'],
	/** `GroupRateLimits`, `ModelRateLimits`: `{name}` the first entry refused, `{detail}` why. */
	callLimitsRefused: ['必须把每个名称映射为 rpm、tpm、rpd、concurrency 上限（0 到 {max} 的整数，例如 {example}）；“{name}”不符合：{detail}', 'must map each name to rpm, tpm, rpd and concurrency limits (whole numbers from 0 to {max}, like {example}); "{name}" does not: {detail}'],
	/** `ModelPriceTiers`: `{name}` the first model refused, `{detail}` why. */
	priceTiersRefused: ['必须把每个模型映射为 tiers（按 above_prompt_tokens 从小到大）、create_cache_1h_ratio、minimum_quota（例如 {example}）；“{name}”不符合：{detail}', 'must map each model to tiers (in rising order of above_prompt_tokens), create_cache_1h_ratio and minimum_quota (like {example}); "{name}" does not: {detail}'],
	priceTiersOrder: ['tiers 须按 above_prompt_tokens 从小到大排列', 'tiers must be in rising order of above_prompt_tokens'],
	modelRatioReset: ['模型倍率已重置为默认值', 'model ratios have been reset to the defaults'],
} as const

export const OPTION_MESSAGES = /* @__PURE__ */ sourceTexts(OPTION_MESSAGE_ENTRIES)
