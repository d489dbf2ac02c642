import { FieldGrid, OptionInput, OptionNumber, OptionQuota, OptionSwitch, OptionTextarea, SectionCard, SwitchRow } from '@ui/features/settings/option-fields'
import { numberRule, quotaRule, useOptionForm } from '@ui/features/settings/options-form'

const KEYS = [
	'ChannelDisableThreshold', 'QuotaRemindThreshold', 'ChannelTestIntervalMinutes', 'KeyRecoveryIntervalMinutes', 'ChannelTestFailuresToDisable',
	'ChannelTestPrompt', 'AutomaticDisableChannelEnabled', 'AutomaticEnableChannelEnabled', 'AutomaticDisableKeywords',
] as const
const RULES = {
	ChannelDisableThreshold: numberRule(0), QuotaRemindThreshold: quotaRule, ChannelTestIntervalMinutes: numberRule(0), KeyRecoveryIntervalMinutes: numberRule(0),
	ChannelTestFailuresToDisable: numberRule(1),
}

export function MonitoringSection() {
	const form = useOptionForm(KEYS, RULES)
	return (
		<SectionCard id="monitoring" title="监控设置" form={form} saveText="保存监控设置">
			<FieldGrid>
				<OptionNumber form={form} name="ChannelDisableThreshold" label="测试所有渠道的最长响应时间（秒）" hint="渠道测试超过此时间算作一次未通过" />
				<OptionQuota form={form} name="QuotaRemindThreshold" label="额度提醒阈值" hint="低于此额度时将发送邮件提醒用户" />
				<OptionNumber form={form} name="ChannelTestIntervalMinutes" label="定时测试渠道间隔（分钟）" hint="0 表示不定时测试" step={1} />
				<OptionNumber form={form} name="KeyRecoveryIntervalMinutes" label="自动禁用的密钥恢复检查间隔（分钟）" hint="按此间隔用模型列表探测被自动禁用的密钥，能用即恢复；0 表示不检查" step={1} />
				<OptionNumber form={form} name="ChannelTestFailuresToDisable" label="连续未通过几次后自动禁用" hint="定时测试和测试所有渠道中，渠道连续这么多次失败或超时才被自动禁用；通过一次即重新计数" step={1} />
			</FieldGrid>
			<OptionInput form={form} name="ChannelTestPrompt" label="渠道测试提示词" hint="每次测试渠道发送的内容（对话的用户消息，或嵌入的输入）；上游拦截“hi”这样的探测时可以改掉" />
			<SwitchRow>
				<OptionSwitch form={form} name="AutomaticDisableChannelEnabled" label="失败时自动禁用渠道" />
				<OptionSwitch form={form} name="AutomaticEnableChannelEnabled" label="成功时自动启用渠道" />
			</SwitchRow>
			<OptionTextarea form={form} name="AutomaticDisableKeywords" label="自动禁用关键词" hint="一行一个，不区分大小写；上游错误包含其中之一时禁用渠道" rows={6} />
		</SectionCard>
	)
}
