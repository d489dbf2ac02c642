import { OptionJson, OptionSwitch, SectionCard } from '@ui/features/settings/option-fields'
import { jsonRule, useOptionForm } from '@ui/features/settings/options-form'

const KEYS = ['GroupRatio', 'UserUsableGroups', 'GroupGroupRatio', 'AutoGroups', 'DefaultUseAutoGroup'] as const
const RULES = { GroupRatio: jsonRule(), UserUsableGroups: jsonRule(), GroupGroupRatio: jsonRule(), AutoGroups: jsonRule() }

export function GroupSection() {
	const form = useOptionForm(KEYS, RULES)
	return (
		<SectionCard id="group" title="分组设置" form={form} saveText="保存分组设置">
			<OptionJson form={form} name="GroupRatio" label="分组倍率" hint="JSON 对象：分组名 → 倍率" />
			<OptionJson form={form} name="UserUsableGroups" label="用户可选分组" hint="JSON 对象：分组名 → 描述" />
			<OptionJson form={form} name="GroupGroupRatio" label="分组特殊倍率" hint="JSON 对象：用户分组 → {令牌分组: 倍率}" />
			<OptionJson form={form} name="AutoGroups" label="自动分组" hint="JSON 列表：auto 分组依次尝试的分组" />
			<OptionSwitch form={form} name="DefaultUseAutoGroup" label="新令牌默认使用 auto 分组" />
		</SectionCard>
	)
}
