import { FieldGrid, OptionNumber, SectionCard } from '@ui/features/settings/option-fields'
import { numberRule, useOptionForm } from '@ui/features/settings/options-form'

const KEYS = ['ResponseCacheSeconds', 'ResponseCacheMaxBytes', 'ResponseCacheRatio', 'SessionIdleSeconds', 'SessionMaxMinutes'] as const
const RULES = {
	ResponseCacheSeconds: numberRule(0),
	ResponseCacheMaxBytes: numberRule(0),
	ResponseCacheRatio: numberRule(0),
	SessionIdleSeconds: numberRule(1),
	SessionMaxMinutes: numberRule(1),
}

/** The response cache (identical requests answered again without the upstream) and the limits of WebSocket sessions (Realtime, Responses). */
export function SessionsCacheSection() {
	const form = useOptionForm(KEYS, RULES)
	return (
		<SectionCard id="sessions-cache" title="响应缓存与长会话" description="配置了 Redis 时缓存存于 Redis，所有节点共享；否则存于本进程内存" form={form} saveText="保存响应缓存与长会话设置">
			<FieldGrid>
				<OptionNumber form={form} name="ResponseCacheSeconds" label="响应缓存时长（秒）" hint="同一用户在此时间内的相同请求由缓存回答；0 表示关闭缓存" step={1} />
				<OptionNumber form={form} name="ResponseCacheMaxBytes" label="响应缓存上限（字节）" hint="最多保存这么多的回答，超出时最早的先删除" step={1} />
				<OptionNumber form={form} name="ResponseCacheRatio" label="缓存命中计费倍率" hint="命中缓存的调用按原调用费用乘以此倍率计费，0 到 1；0 表示免费" />
			</FieldGrid>
			<FieldGrid columns={2}>
				<OptionNumber form={form} name="SessionIdleSeconds" label="会话空闲上限（秒）" hint="Realtime 与 Responses WebSocket 会话这么久没有任何事件即关闭" step={1} />
				<OptionNumber form={form} name="SessionMaxMinutes" label="会话时长上限（分钟）" hint="WebSocket 会话最长持续这么久" step={1} />
			</FieldGrid>
		</SectionCard>
	)
}
