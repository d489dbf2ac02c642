import { OptionSwitch, OptionTextarea, SectionCard, SwitchRow } from '@ui/features/settings/option-fields'
import { useOptionForm } from '@ui/features/settings/options-form'

const KEYS = ['CheckSensitiveEnabled', 'CheckSensitiveOnPromptEnabled', 'CheckSensitiveOnCompletionEnabled', 'StopOnSensitiveEnabled', 'SensitiveWords'] as const

export function SensitiveSection() {
	const form = useOptionForm(KEYS)
	return (
		<SectionCard id="sensitive" title="屏蔽词过滤设置" form={form} saveText="保存屏蔽词过滤设置">
			<SwitchRow>
				<OptionSwitch form={form} name="CheckSensitiveEnabled" label="启用屏蔽词过滤功能" />
				<OptionSwitch form={form} name="CheckSensitiveOnPromptEnabled" label="启用提示词检查" />
				<OptionSwitch form={form} name="CheckSensitiveOnCompletionEnabled" label="启用回答检查" />
				<OptionSwitch form={form} name="StopOnSensitiveEnabled" label="回答中出现屏蔽词时停止" hint="关闭时替换为 **###**" />
			</SwitchRow>
			<OptionTextarea form={form} name="SensitiveWords" label="屏蔽词列表" hint="一行一个屏蔽词，不需要符号分割，不区分大小写" rows={6} />
		</SectionCard>
	)
}
