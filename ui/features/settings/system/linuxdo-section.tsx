import { FieldsSection, sectionSpec } from '@ui/features/settings/system/fields-section'

const SPEC = sectionSpec([
	{ key: 'LinuxDOClientId', label: 'LinuxDO Client ID' },
	{ key: 'LinuxDOClientSecret', label: 'LinuxDO Client Secret', kind: 'secret' },
])

export function LinuxDoSection() {
	return <FieldsSection id="linuxdo" title="配置 LinuxDO OAuth" saveText="保存 LinuxDO OAuth 设置" description="回调地址填写：服务器地址 + /oauth/linuxdo" spec={SPEC} />
}
