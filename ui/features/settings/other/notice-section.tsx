import { OptionTextarea, SectionCard } from '@ui/features/settings/option-fields'
import { useOptionForm } from '@ui/features/settings/options-form'

const KEYS = ['Notice'] as const

export function NoticeSection() {
	const form = useOptionForm(KEYS)
	return (
		<SectionCard id="notice" title="公告设置" form={form} saveText="设置公告">
			<OptionTextarea form={form} name="Notice" label="公告" hint="支持 Markdown 和 HTML，显示前会经过过滤" placeholder="在此输入新的公告内容" rows={6} />
		</SectionCard>
	)
}
