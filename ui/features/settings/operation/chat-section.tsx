import { OptionJson, SectionCard } from '@ui/features/settings/option-fields'
import { jsonRule, useOptionForm } from '@ui/features/settings/options-form'

const KEYS = ['Chats'] as const
const RULES = { Chats: jsonRule() }

export function ChatSection() {
	const form = useOptionForm(KEYS, RULES)
	return (
		<SectionCard id="chat" title="聊天设置" form={form} saveText="保存聊天设置">
			<OptionJson form={form} name="Chats" label="聊天配置" hint="JSON 列表，每项是客户端名称到链接的对象；链接中的 {key} 和 {address} 会被替换" rows={10} />
		</SectionCard>
	)
}
