import { FieldsSection, sectionSpec } from '@ui/features/settings/system/fields-section'

const SPEC = sectionSpec([
	{ key: 'SMTPServer', label: 'SMTP 服务器地址', placeholder: '例如：smtp.qq.com' },
	{ key: 'SMTPPort', label: 'SMTP 端口', kind: 'number', min: 1, placeholder: '默认 587' },
	{ key: 'SMTPAccount', label: 'SMTP 账户', placeholder: '通常是邮箱地址' },
	{ key: 'SMTPFrom', label: 'SMTP 发送者邮箱', placeholder: '通常和邮箱地址保持一致' },
	{ key: 'SMTPToken', label: 'SMTP 访问凭证', kind: 'secret' },
	{ key: 'SMTPSSLEnabled', label: '启用 SMTP SSL', kind: 'switch' },
])

export function SmtpSection() {
	return <FieldsSection id="smtp" title="配置 SMTP" saveText="保存 SMTP 设置" description="用于发送验证码、密码重置和额度提醒邮件" spec={SPEC} />
}
