import { useLoaderData } from 'react-router'
import { LogCleanup } from '@ui/features/logs/components/log-cleanup'
import { OptionSwitch, SectionCard } from '@ui/features/settings/option-fields'
import { useOptionForm } from '@ui/features/settings/options-form'
import type { SettingData } from '@ui/features/settings/setting-route'

const KEYS = ['LogConsumeEnabled'] as const

/** The consumption-log switch, and the cleanup of entries older than a time (default a month ago). */
export function LogSection() {
	const form = useOptionForm(KEYS)
	const { cleanupTime } = useLoaderData() as SettingData
	return (
		<SectionCard id="log" title="日志设置" form={form} saveText="保存日志设置">
			<OptionSwitch form={form} name="LogConsumeEnabled" label="启用额度消费日志记录" />
			<LogCleanup defaultTime={cleanupTime} />
		</SectionCard>
	)
}
