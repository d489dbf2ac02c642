/**
 * The chat frame's rules (docs/specification/playground-and-chat.md#chat-links): the link template comes from the server status; the
 * key is the user's first enabled token's. A web link is embedded; any other scheme is an app's deep
 * link, opened by navigating to it.
 */
import { TOKEN_STATUS } from '@shared/token-constants'
import type { Api } from '@ui/lib/api'
import type { Status } from '@ui/lib/status'
import type { TokenView } from '@ui/features/tokens/api'
import { chatLinks, chatUrl } from '@ui/features/tokens/chat-links'

export const chatFrameMessages = {
	notConfigured: '请联系管理员配置聊天链接',
	misconfigured: '聊天链接配置错误，请联系管理员',
	noEnabledToken: '没有可用的已启用令牌',
} as const

/** How long the no-token message shows before the page goes to /token. */
export const NO_TOKEN_REDIRECT_MS = 1500

/**
 * The template of `/chat/{index}`: the index-th entry of `chats`; with no `chats`, the first is the
 * older single `chat_link`. Undefined when none is configured.
 */
export function chatTemplate(status: Pick<Status, 'chats' | 'chat_link'>, index: number): string | undefined {
	const links = chatLinks(status.chats)
	if (links.length === 0) return index === 0 && status.chat_link ? status.chat_link : undefined
	return Number.isInteger(index) && index >= 0 ? links[index]?.template : undefined
}

export type FrameTarget = { kind: 'embed'; url: string } | { kind: 'open'; url: string } | { kind: 'misconfigured' }

export function frameTarget(template: string, key: string, address: string): FrameTarget {
	const url = chatUrl(template, key, address)
	const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase()
	if (!url || !scheme) return { kind: 'misconfigured' }
	return scheme === 'http' || scheme === 'https' ? { kind: 'embed', url } : { kind: 'open', url }
}

/** The user's first enabled token among the first hundred (`GET /api/token/?p=0&size=100`). */
export async function firstEnabledTokenKey(api: Api): Promise<string | undefined> {
	const envelope = await api.get<{ items: TokenView[] }>('/api/token/?p=0&size=100')
	if (!envelope.success) return undefined
	return envelope.data.items.find((token) => token.status === TOKEN_STATUS.enabled)?.key
}
