import { FieldsSection, sectionSpec } from '@ui/features/settings/system/fields-section'

const SPEC = sectionSpec([
	{ key: 'RegisterAddressLimit', label: '每个网络地址可注册的账户数', hint: '同一地址（IPv6 按 /64 计）在一个时间窗口内最多注册的新账户数，含第三方账户注册；0 表示不限制', kind: 'number', min: 0 },
	{ key: 'RegisterAddressWindowHours', label: '注册限制时间窗口（小时）', kind: 'number', min: 1 },
])

/** How many accounts one address may open (docs/specification/accounts-and-settings.md#registration). */
export function RegisterLimitSection() {
	return <FieldsSection id="register-limit" title="注册频率限制" saveText="保存注册频率限制" description="用以防止同一网络地址批量注册" spec={SPEC} />
}
