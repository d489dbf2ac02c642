import { DATA_EXPORT_GRANULARITIES } from '@ui/features/settings/constants'
import { FieldGrid, OptionNumber, OptionSelect, OptionSwitch, SectionCard } from '@ui/features/settings/option-fields'
import { numberRule, useOptionForm } from '@ui/features/settings/options-form'

const KEYS = ['DataExportEnabled', 'DataExportInterval', 'DataExportDefaultTime'] as const
const RULES = { DataExportInterval: numberRule(1) }
const GRANULARITY_LABELS: Record<(typeof DATA_EXPORT_GRANULARITIES)[number], string> = { hour: '按小时', day: '按天', week: '按周' }
const CHOICES = DATA_EXPORT_GRANULARITIES.map((value) => ({ value, label: GRANULARITY_LABELS[value] }))

export function DashboardSection() {
	const form = useOptionForm(KEYS, RULES)
	return (
		<SectionCard id="dashboard" title="数据看板设置" form={form} saveText="保存数据看板设置">
			<OptionSwitch form={form} name="DataExportEnabled" label="启用数据看板（实验性）" />
			<FieldGrid columns={2}>
				<OptionNumber form={form} name="DataExportInterval" label="数据看板更新间隔（分钟）" hint="设置过短会影响数据库性能" step={1} />
				<OptionSelect form={form} name="DataExportDefaultTime" label="数据看板默认时间粒度" choices={CHOICES} />
			</FieldGrid>
		</SectionCard>
	)
}
