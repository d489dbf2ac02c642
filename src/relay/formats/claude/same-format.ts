/**
 * Claude-format calls on channels that speak Claude's Messages API (same-format traffic):
 * the upstream gets the client's own body — every field, block and beta the client sent — with only
 * the model name mapped, and the client gets the upstream's answer as it came (read by wire.ts for
 * the bill). The stages still hold, route and bill by the converted OpenAI form.
 */
import type { NativeRequest } from '../../providers/types'

const API_VERSION = /^\d{4}-\d{2}-\d{2}$/
/** Beta names are short tokens; Claude Code sends about ten. A longer header is not a beta list. */
const BETA_LIST = /^[\w.-]+(?:\s*,\s*[\w.-]+)*$/
const BETA_LIST_MAX_LENGTH = 4096

/** What the format reads of the client's headers. */
export interface HeaderReader {
	get(name: string): string | null
}

/** The headers the client wrote its body for: its API version and betas (context management, 1M context…). */
export function claudeWireHeaders(headers: HeaderReader): Record<string, string> {
	const wire: Record<string, string> = {}
	const version = headers.get('anthropic-version')?.trim()
	if (version && API_VERSION.test(version)) wire['anthropic-version'] = version
	const betas = headers.get('anthropic-beta')?.trim()
	if (betas && betas.length <= BETA_LIST_MAX_LENGTH && BETA_LIST.test(betas)) wire['anthropic-beta'] = betas
	return wire
}

/**
 * `text` is the body as the client sent it, `body` the same parsed; `headers` the client's, and
 * `betaQuery` its `?beta=` query value (the Claude SDKs send `true`).
 */
export function claudeNativeRequest(text: string, body: Record<string, unknown>, headers: HeaderReader, betaQuery: string | null): NativeRequest {
	return {
		format: 'claude',
		text,
		value: body,
		modelInBody: true,
		headers: claudeWireHeaders(headers),
		search: betaQuery === 'true' ? '?beta=true' : '',
	}
}
