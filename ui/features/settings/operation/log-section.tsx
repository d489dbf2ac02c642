import { useLoaderData } from 'react-router'
import { LogCleanup } from '@ui/features/logs/components/log-cleanup'
import { OptionNumber, OptionSwitch, SectionCard } from '@ui/features/settings/option-fields'
import { numberRule, useOptionForm } from '@ui/features/settings/options-form'
import type { SettingData } from '@ui/features/settings/setting-route'

const KEYS = ['LogConsumeEnabled', 'ConsumeLogRetentionDays'] as const
const RULES = { ConsumeLogRetentionDays: numberRule(0) }

/** The consumption-log switch, its retention in days, and the cleanup of entries older than a time (default a month ago). */
export function LogSection() {
	const form = useOptionForm(KEYS, RULES)
	const { cleanupTime } = useLoaderData() as SettingData
	return (
		<SectionCard id="log" title="日志设置" form={form} saveText="保存日志设置">
			<OptionSwitch form={form} name="LogConsumeEnabled" label="启用额度消费日志记录" />
			<OptionNumber form={form} name="ConsumeLogRetentionDays" label="消费日志保留天数" hint="超过该天数的消费日志在后台分批删除，0 表示永久保留；数据看板的统计不受影响" step={1} />
			<LogCleanup defaultTime={cleanupTime} />
		</SectionCard>
	)
}
