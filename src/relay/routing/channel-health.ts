/**
 * When an upstream error takes a key (and a single-key channel) out: auto-disable is on, the
 * channel's `auto_ban` is 1, and the upstream said 401 or 403 — the key is invalid or refused — or
 * an error matching `AutomaticDisableKeywords` (out of credit, a disabled organisation…).
 * Statuses that mean the client's request was at fault never disable a channel, even when the
 * message matches, since a client could make an upstream echo a keyword back.
 */
import { statusReason, type StatusReason } from '@shared/messages/channel-status'
import type { OptionStore } from '@/db/stores/options'

const CLIENT_FAULT_STATUSES = new Set([400, 404, 408, 413, 415, 422])

export function disableReason(options: OptionStore, autoBan: boolean, status: number, message: string): StatusReason | undefined {
	if (!options.get('AutomaticDisableChannelEnabled') || !autoBan) return undefined
	if (CLIENT_FAULT_STATUSES.has(status)) return undefined
	const excerpt = message.slice(0, 200)
	if (status === 401) return statusReason('upstream.unauthorized', { message: excerpt })
	// The key is refused (a project without access, a disabled organisation): as good as invalid.
	if (status === 403) return statusReason('upstream.forbidden', { message: excerpt })
	const lowered = message.toLowerCase()
	const keyword = options.get('AutomaticDisableKeywords').split('\n').map((line) => line.trim().toLowerCase()).filter(Boolean)
		.find((candidate) => lowered.includes(candidate))
	return keyword ? statusReason('upstream.keyword', { keyword, message: excerpt }) : undefined
}
