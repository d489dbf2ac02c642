import { FieldsSection, sectionSpec } from '@ui/features/settings/system/fields-section'

const SPEC = sectionSpec([
	{ key: 'TelegramBotName', label: 'Telegram 机器人名称' },
	{ key: 'TelegramBotToken', label: 'Telegram 机器人令牌', kind: 'secret' },
])

export function TelegramSection() {
	return <FieldsSection id="telegram" title="配置 Telegram 登录" saveText="保存 Telegram 登录设置" spec={SPEC} />
}
