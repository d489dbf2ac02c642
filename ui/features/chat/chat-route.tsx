/** `/chat/{id}` (docs/specification/playground-and-chat.md#chat-links): the id-th configured chat link, with the user's first enabled token. */
import { useParams } from 'react-router'
import { useStatus } from '@ui/lib/status'
import { ChatFrame } from '@ui/features/chat/chat-page'
import { chatTemplate } from '@ui/features/chat/chat-frame'

export function Component() {
	const { id } = useParams()
	const status = useStatus()
	const index = id === undefined ? 0 : /^\d+$/.test(id) ? Number(id) : -1
	// Keyed by the link so that moving between /chat/0 and /chat/1 starts afresh.
	return <ChatFrame key={index} template={chatTemplate(status, index)} />
}
