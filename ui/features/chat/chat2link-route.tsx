/** `/chat2link` (docs/specification/playground-and-chat.md#chat-links): the second chat link, `chat_link2`, opened like `/chat/{id}`. */
import { useStatus } from '@ui/lib/status'
import { ChatFrame } from '@ui/features/chat/chat-page'

export function Component() {
	const status = useStatus()
	return <ChatFrame template={status.chat_link2 || undefined} />
}
