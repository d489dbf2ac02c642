import { FieldGrid, OptionJson, OptionNumber, OptionSwitch, SectionCard } from '@ui/features/settings/option-fields'
import { jsonRule, numberRule, useOptionForm } from '@ui/features/settings/options-form'

const KEYS = [
	'ModelRequestRateLimitEnabled', 'ModelRequestRateLimitDurationMinutes', 'ModelRequestRateLimitCount',
	'ModelRequestRateLimitSuccessCount', 'ModelRequestRateLimitGroup', 'GroupRateLimits', 'ModelRateLimits',
] as const
const RULES = {
	ModelRequestRateLimitDurationMinutes: numberRule(1),
	ModelRequestRateLimitCount: numberRule(0),
	ModelRequestRateLimitSuccessCount: numberRule(0),
	ModelRequestRateLimitGroup: jsonRule(),
	GroupRateLimits: jsonRule(),
	ModelRateLimits: jsonRule(),
}

/** Request rate limits per user (a total and a success count per window, per-group overrides), and the call limits of groups and models. */
export function RateLimitSection() {
	const form = useOptionForm(KEYS, RULES)
	return (
		<SectionCard id="rate-limit" title="请求速率限制" description="按用户计数，超出时返回 429；配置了 Redis 时所有节点共享计数" form={form} saveText="保存请求速率限制">
			<OptionSwitch form={form} name="ModelRequestRateLimitEnabled" label="启用请求速率限制" />
			<FieldGrid>
				<OptionNumber form={form} name="ModelRequestRateLimitDurationMinutes" label="限制周期（分钟）" hint="周期从用户的第一次请求开始计算" step={1} />
				<OptionNumber form={form} name="ModelRequestRateLimitCount" label="周期内最多请求次数" hint="失败的请求也计入；0 表示不限制" step={1} />
				<OptionNumber form={form} name="ModelRequestRateLimitSuccessCount" label="周期内最多成功请求次数" hint="只计入成功的请求；0 表示不限制" step={1} />
			</FieldGrid>
			<OptionJson
				form={form}
				name="ModelRequestRateLimitGroup"
				label="分组速率限制"
				hint="JSON 对象：分组名 → [最多请求次数, 最多成功请求次数]，替代上面两项；按令牌的分组，令牌未设分组时按用户的分组"
			/>
			<OptionJson
				form={form}
				name="GroupRateLimits"
				label="分组调用限制"
				hint="JSON 对象：分组名 → {rpm, tpm, rpd, concurrency}（每分钟请求数、每分钟 token 数、每天请求数、同时进行的调用数），分组内每个用户各自计数；用户自己设置的限制优先；0 或不填表示不限"
			/>
			<OptionJson
				form={form}
				name="ModelRateLimits"
				label="模型调用限制"
				hint="JSON 对象：模型名 → {rpm, tpm, rpd, concurrency}，每个用户调用该模型各自计数；与令牌、用户的限制同时生效"
			/>
		</SectionCard>
	)
}
