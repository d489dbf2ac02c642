import { FieldsSection, sectionSpec } from '@ui/features/settings/system/fields-section'

/** Saving the well-known URL makes the server read the discovery document and fill the three endpoints. */
const SPEC = sectionSpec([
	{ key: 'oidc.client_id', label: 'Client ID' },
	{ key: 'oidc.client_secret', label: 'Client Secret', kind: 'secret' },
	{ key: 'oidc.well_known', label: 'Well-Known URL', kind: 'address', hint: '保存后自动从发现文档填写以下端点', placeholder: 'https://idp.example.com/.well-known/openid-configuration' },
	{ key: 'oidc.authorization_endpoint', label: 'Authorization Endpoint', kind: 'address' },
	{ key: 'oidc.token_endpoint', label: 'Token Endpoint', kind: 'address' },
	{ key: 'oidc.user_info_endpoint', label: 'UserInfo Endpoint', kind: 'address' },
])

export function OidcSection() {
	return <FieldsSection id="oidc" title="配置 OIDC" saveText="保存 OIDC 设置" description="回调地址填写：服务器地址 + /oauth/oidc" spec={SPEC} />
}
