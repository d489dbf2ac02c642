import { FieldsSection, sectionSpec } from '@ui/features/settings/system/fields-section'

const SPEC = sectionSpec([
	{ key: 'TurnstileSiteKey', label: 'Turnstile Site Key' },
	{ key: 'TurnstileSecretKey', label: 'Turnstile Secret Key', kind: 'secret' },
])

export function TurnstileSection() {
	return <FieldsSection id="turnstile" title="配置 Turnstile" saveText="保存 Turnstile 设置" description="用于在登录、注册和发送邮件时校验用户" spec={SPEC} />
}
