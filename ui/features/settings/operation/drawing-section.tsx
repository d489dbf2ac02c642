import { OptionSwitch, SectionCard, SwitchRow } from '@ui/features/settings/option-fields'
import { useOptionForm } from '@ui/features/settings/options-form'

const KEYS = ['DrawingEnabled', 'TaskEnabled', 'MjNotifyEnabled', 'MjAccountFilterEnabled', 'MjForwardUrlEnabled', 'MjModeClearEnabled', 'MjActionCheckSuccessEnabled'] as const

export function DrawingSection() {
	const form = useOptionForm(KEYS)
	return (
		<SectionCard id="drawing" title="绘图设置" form={form} saveText="保存绘图设置">
			<SwitchRow>
				<OptionSwitch form={form} name="DrawingEnabled" label="启用绘图功能" />
				<OptionSwitch form={form} name="TaskEnabled" label="启用异步任务" />
				<OptionSwitch form={form} name="MjNotifyEnabled" label="允许回调（会泄露服务器地址）" />
				<OptionSwitch form={form} name="MjAccountFilterEnabled" label="允许 AccountFilter 参数" />
				<OptionSwitch form={form} name="MjForwardUrlEnabled" label="将图片地址替换为服务器地址" />
				<OptionSwitch form={form} name="MjModeClearEnabled" label="清除提示词中的 --fast、--relax、--turbo 参数" />
				<OptionSwitch form={form} name="MjActionCheckSuccessEnabled" label="检测必须等待绘图成功才能进行放大等操作" />
			</SwitchRow>
		</SectionCard>
	)
}
