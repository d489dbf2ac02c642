import { FieldsSection, sectionSpec } from '@ui/features/settings/system/fields-section'

const SPEC = sectionSpec([
	{ key: 'GitHubClientId', label: 'GitHub Client ID' },
	{ key: 'GitHubClientSecret', label: 'GitHub Client Secret', kind: 'secret' },
])

export function GitHubSection() {
	return <FieldsSection id="github" title="配置 GitHub OAuth App" saveText="保存 GitHub OAuth 设置" description="回调地址填写：服务器地址 + /oauth/github" spec={SPEC} />
}
