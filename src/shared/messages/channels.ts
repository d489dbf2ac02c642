/** What the channel calls and the channel tools (test, balance, model list, detection) answer (docs/specification/channels.md). */
import { plural } from '../plural'
import { CHANNEL_GROUP_NAME_MAX_LENGTH, CHANNEL_LIST_MAX_ITEMS, CHANNEL_MODEL_NAME_MAX_LENGTH, PRIORITY_MIN } from '../channel-constants'
import { sourceTexts } from './define'

export const CHANNEL_MESSAGE_ENTRIES = {
	listTooLong: [`列表最多 ${CHANNEL_LIST_MAX_ITEMS} 项`, `a list may have at most ${CHANNEL_LIST_MAX_ITEMS} entries`],
	modelNameTooLong: [`模型名称最多 ${CHANNEL_MODEL_NAME_MAX_LENGTH} 个字符`, `a model name may have at most ${CHANNEL_MODEL_NAME_MAX_LENGTH} characters`],
	groupNameTooLong: [`分组名称最多 ${CHANNEL_GROUP_NAME_MAX_LENGTH} 个字符`, `a group name may have at most ${CHANNEL_GROUP_NAME_MAX_LENGTH} characters`],
	nameAndKeyRequired: ['请填写渠道名称和渠道密钥', 'please fill channel name and key'],
	modelsRequired: ['请至少选择一个模型', 'please select at least one model'],
	typeUnknown: ['请选择已知的渠道类型', 'please choose a known channel type'],
	modelMappingInvalid: ['模型重定向必须是合法的 JSON 格式', 'model mapping must be valid JSON'],
	baseUrlInvalid: ['代理地址必须是以 http:// 或 https:// 开头的完整网址，例如 https://api.example.com', 'the base URL must be a full address starting with http:// or https://, e.g. https://api.example.com'],
	modelMappingCycle: ['模型重定向存在循环（{cycle}），模型不能经由其他名称映射回自身', 'model mapping has a cycle ({cycle}): a model must not map back to itself through other names'],
	keyNeededForNewDestination: [
		'类型、Base URL 和“其他”设置（区域、账户、API 版本）决定渠道密钥发往何处：修改它们需要重新输入密钥（只有超级管理员可以不输入）',
		'the type, base URL and "other" setting (region, account, API version) decide where the channel key is sent: enter the key again to change them (only the super admin may change them without it)',
	],
	statusCodeMappingInvalid: ['状态码复写必须是从状态码到状态码的 JSON 对象', 'status code mapping must be a JSON object from status code to status code'],
	settingInvalid: ['额外设置必须是合法的 JSON 对象', 'extra setting must be a JSON object'],
	settingBoolean: ['额外设置中的 {key} 必须是 true 或 false', 'in the extra setting, {key} must be true or false'],
	settingSystemPrompt: ['额外设置中的 system_prompt 必须是不超过 {max} 个字符的字符串', 'in the extra setting, system_prompt must be a string of at most {max} characters'],
	settingFirstTokenTimeout: ['额外设置中的 first_token_timeout_seconds 必须是 0 到 {max} 之间的秒数（0 表示不限）', 'in the extra setting, first_token_timeout_seconds must be a number of seconds from 0 to {max} (0: no limit)'],
	settingProxyUnsupported: [
		'额外设置中的 proxy 暂不支持：Ferry 只连接自己解析并检查过的地址，代理会自行解析和连接上游，绕过这项检查。请删除 proxy，或在 Ferry 所在机器的网络层配置出口代理',
		'proxy is not supported in the extra setting: Ferry connects only to addresses it has resolved and checked itself, and a proxy would resolve and reach the upstream on its own, around that check. Remove proxy, or route Ferry\'s outbound traffic through a proxy at the network level',
	],
	costRatioInvalid: ['成本倍率须为 0 到 10000 之间的数字，留空表示未知', 'the cost ratio must be a number from 0 to 10000, or empty for unknown'],
	modelCostInvalid: ['模型成本价必须是 JSON 对象：模型名 → {"input", "output", "cache_read", "cache_write", "per_call"}（美元，不小于 0）', 'model cost prices must be a JSON object: model name → {"input", "output", "cache_read", "cache_write", "per_call"} (USD, not below 0)'],
	priorityInteger: ['优先级必须是整数', 'priority must be an integer'],
	priorityMinimum: [`优先级不能小于 ${PRIORITY_MIN}`, `priority must not be less than ${PRIORITY_MIN}`],
	weightInteger: ['权重必须是非负整数', 'weight must be a non-negative integer'],
	maxInputTokensInvalid: ['最大输入 token 数必须是非负整数，0 或留空表示不限', 'max input tokens must be a non-negative whole number; 0 or empty means no limit'],
	scheduledTestInvalid: ['参与定时测试必须是 true 或 false', 'scheduled_test_enabled must be true or false'],
	statusInvalid: ['状态必须是 1（启用）、2（禁用）或 3（自动禁用）', 'status must be 1 (enabled), 2 (disabled) or 3 (auto-disabled)'],
	notFound: ['渠道不存在，请刷新后重试', 'channel not found, refresh and retry'],
	selectChannels: ['请先选择渠道', 'please select channels first'],
	selectChannelsToDelete: ['请先选择要删除的渠道', 'please select channels to delete first'],
	tagRequired: ['标签不能为空', 'the tag must not be empty'],
	noChanges: ['没有修改', 'no changes'],
	noChannelsWithTag: ['没有渠道使用该标签', 'no channel has this tag'],
	// Multi-key channels: the key list, one key per line or a JSON array.
	keysTooMany: ['一个渠道最多 {max} 个密钥，这里有 {count} 个', 'a channel holds at most {max} keys; this would make {count}'],
	keyLineTooLong: ['第 {line} 行的密钥超过 {max} 字节', 'the key on line {line} is longer than {max} bytes'],
	keyElementTooLong: ['JSON 数组第 {element} 个元素的密钥超过 {max} 字节', 'the key in element {element} of the JSON array is longer than {max} bytes'],
	keyArrayInvalid: ['密钥以 [ 开头，但不是合法的 JSON 数组', 'the keys start with [ but are not a valid JSON array'],
	keyElementInvalid: ['JSON 数组的第 {element} 个元素既不是字符串也不是 JSON 对象', 'element {element} of the JSON array is neither a string nor a JSON object'],
	vertexKeyLineInvalid: [
		'第 {line} 行不是 Vertex AI 服务账号密钥（含 project_id、client_email 和 private_key 的 JSON 对象；多个密钥请写成 JSON 数组，最多 {max} 字节一个）',
		'line {line} is not a Vertex AI service-account key (a JSON object with project_id, client_email and private_key; give several as a JSON array, at most {max} bytes each)',
	],
	vertexKeyElementInvalid: [
		'JSON 数组的第 {element} 个元素不是 Vertex AI 服务账号密钥（含 project_id、client_email 和 private_key 的 JSON 对象，最多 {max} 字节）',
		'element {element} of the JSON array is not a Vertex AI service-account key (a JSON object with project_id, client_email and private_key, at most {max} bytes)',
	],
	duplicateKeysLeftOut: ['已忽略 {count} 个重复的密钥', plural('count', { one: '{count} duplicate key left out', other: '{count} duplicate keys left out' })],
	keysAdded: ['已添加 {added} 个密钥，忽略 {duplicates} 个重复的密钥', plural('added', {
		one: plural('duplicates', { one: '{added} key added, {duplicates} duplicate left out', other: '{added} key added, {duplicates} duplicates left out' }),
		other: plural('duplicates', { one: '{added} keys added, {duplicates} duplicate left out', other: '{added} keys added, {duplicates} duplicates left out' }),
	})],
	keyNotFound: ['密钥 #{index} 不存在，请刷新后重试', 'key #{index} not found, refresh and retry'],
	keyIndexInvalid: ['密钥序号必须是非负整数', 'the key index must be a non-negative integer'],
	keyStatusInvalid: ['密钥状态必须是 1（启用）或 2（禁用）', 'the key status must be 1 (enabled) or 2 (disabled)'],
	lastKey: ['渠道至少要有一个密钥：要停用它，请禁用或删除渠道', 'a channel needs at least one key: disable or delete the channel instead'],
	lastEnabledKey: [
		'这是已启用渠道的最后一个启用的密钥：请先启用另一个密钥，或禁用渠道',
		'this is the last enabled key of an enabled channel: enable another key first, or disable the channel',
	],
	notMultiKey: ['这个渠道只有一个密钥，请在编辑渠道时修改它', 'this channel has a single key: change it by editing the channel'],
	multiKeyKeysApart: ['多密钥渠道的密钥在它的密钥列表中添加、禁用或删除', "a multi-key channel's keys are added, disabled and deleted in its key list"],
	multiKeyModeInvalid: ['多密钥的选择方式必须是 random（随机）或 polling（轮询）', 'the multi-key mode must be random or polling'],
	multiKeyDestinationRootOnly: [
		'类型、Base URL 和“其他”设置（区域、账户、API 版本）决定密钥发往何处：多密钥渠道的这些设置只有超级管理员可以修改',
		'the type, base URL and "other" setting (region, account, API version) decide where the keys are sent: only the super admin may change them on a multi-key channel',
	],
} as const

export const CHANNEL_MESSAGES = /* @__PURE__ */ sourceTexts(CHANNEL_MESSAGE_ENTRIES)

export const CHANNEL_TOOL_MESSAGE_ENTRIES = {
	testAllStarted: ['已在后台开始测试所有已启用和自动禁用的渠道', 'testing all enabled and auto-disabled channels in the background'],
	testAllRunning: ['所有渠道的测试已在进行，请等待它结束', 'a test of all channels is already running, please wait for it to finish'],
	cannotTest: ['Ferry 无法测试这种类型的渠道', 'this channel type has no endpoint Ferry can test'],
	malformed: ['上游的回答不是有效的应答', 'the upstream answered with something that is not a valid answer'],
	mappingCycle: ['渠道的模型重定向存在循环', 'the channel model mapping has a cycle'],
	testTimedOut: ['{seconds} 秒内没有应答', 'no answer within {seconds} s'],
	requestFailed: ['向上游的请求失败', 'the request to the upstream failed'],
	keyUnreadable: ['当前 CRYPTO_SECRET 无法解密渠道密钥，请重新输入密钥', 'the channel key cannot be decrypted with this CRYPTO_SECRET; enter the key again'],
	/** An upstream's error answer: its status and its own message (in its own language), secrets scrubbed. */
	upstreamAnswered: ['上游返回 {status}：{message}', 'upstream answered {status}: {message}'],
	upstreamAnsweredStatus: ['上游返回 {status}', 'upstream answered {status}'],
	balanceUnsupported: ['{type} 渠道没有余额接口', '{type} channels have no balance API'],
	balanceUnreadable: ['无法读取上游的余额应答', 'the upstream balance answer could not be read'],
	balanceRequestFailed: ['向上游查询余额的请求失败', 'the balance request to the upstream failed'],
	keyRequired: ['请填写密钥', 'please fill in the key'],
	baseUrlRequired: ['请填写 Base URL', 'please fill in the base URL'],
	modelListUnreadable: ['无法读取上游的模型列表', 'the upstream model list could not be read'],
	modelListUnsupported: ['{type} 渠道没有获取模型列表的接口', '{type} channels have no model list call'],
	modelListRequestFailed: ['向上游获取模型列表的请求失败', 'the model list request to the upstream failed'],
	modelSyncNothingChosen: ['请至少选择一个要添加或移除的模型', 'please choose at least one model to add or remove'],
	modelSyncLastModel: ['渠道至少要保留一个模型', 'a channel must keep at least one model'],
	modelSyncApplied: ['已添加 {added} 个模型，移除 {removed} 个模型', plural('added', {
		one: plural('removed', { one: '{added} model added, {removed} model removed', other: '{added} model added, {removed} models removed' }),
		other: plural('removed', { one: '{added} models added, {removed} model removed', other: '{added} models added, {removed} models removed' }),
	})],
	noBaseUrlToProbe: ['渠道没有可以探测的 Base URL', 'the channel has no base URL to probe'],
	upstreamUnreachable: ['无法连接上游', 'the upstream could not be reached'],
	// What the outbound client refused or met, naming the target by scheme, host and port only.
	outboundBlocked: ['到 {target} 的请求被拒绝：{reason}', 'outbound request to {target} refused: {reason}'],
	/** A URL the client could not parse has no scheme, host and port to name. */
	outboundBlockedUnnamed: ['请求被拒绝：{reason}', 'outbound request refused: {reason}'],
	blockedInvalidUrl: ['无法解析该 URL', 'the URL cannot be parsed'],
	blockedScheme: ['只允许 http 和 https', 'only http and https are allowed'],
	blockedCredentials: ['URL 中不允许包含用户名和密码', 'user names and passwords in the URL are not allowed'],
	blockedPrivateAddress: ['该主机位于私有、回环或链路本地网络', 'the host is on a private, loopback or link-local network'],
	blockedMetadataAddress: ['该主机是云元数据地址', 'the host is a cloud metadata address'],
	blockedReservedAddress: ['该主机是未指定、组播、广播或保留地址', 'the host is an unspecified, multicast, broadcast or reserved address'],
	blockedRedirect: ['服务器返回了重定向，而该请求不允许重定向', 'the server answered with a redirect and redirects were not allowed'],
	blockedTooManyRedirects: ['重定向次数过多', 'too many redirects'],
	blockedRedirectBody: ['重定向需要再次发送请求体，而请求体是流', 'the redirect needs the request body again and the body was a stream'],
	outboundTimedOut: ['到 {target} 的请求超时：{milliseconds} 毫秒内{phase}', 'outbound request to {target} timed out: {phase} within {milliseconds} ms'],
	timeoutConnect: ['未能建立连接', 'no connection'],
	timeoutFirstByte: ['没有响应', 'no response'],
	timeoutIdle: ['没有数据', 'no data'],
	outboundTooLarge: ['{target} 的响应超过 {limit} 字节', 'outbound response from {target} is larger than {limit} bytes'],
	outboundNetwork: ['到 {target} 的请求失败：{code}', 'outbound request to {target} failed: {code}'],
	outboundHandshake: ['到 {target} 的 WebSocket 握手被拒绝：状态 {status}', 'WebSocket handshake with {target} refused: status {status}'],
	noUsableKey: ['渠道没有可用的密钥（都被手动禁用了）', 'the channel has no usable key (all are disabled by hand)'],
	keyTestRunning: ['这个渠道的密钥测试已在进行，请等待它结束', "a test of this channel's keys is already running, please wait for it to finish"],
	testKeysInvalid: ['keys 参数只能是 all', 'the keys parameter may only be all'],
} as const

export const CHANNEL_TOOL_MESSAGES = /* @__PURE__ */ sourceTexts(CHANNEL_TOOL_MESSAGE_ENTRIES)
