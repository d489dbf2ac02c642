import { FieldsSection, sectionSpec } from '@ui/features/settings/system/fields-section'

const SPEC = sectionSpec([
	{ key: 'ServerAddress', label: '服务器地址', placeholder: '例如：https://yourdomain.com', kind: 'address', hint: '用于支付回调、OAuth 回调和邮件中的链接' },
])

export function ServerSection() {
	return <FieldsSection id="server" title="通用设置" saveText="更新服务器地址" spec={SPEC} />
}
