/** Image and document sources: OpenAI's URL (an http(s) URL or a data URL) ⇄ Claude's `source`. */

type ClaudeSource =
	| { type: 'base64'; media_type: string; data: string }
	| { type: 'url'; url: string }

const DATA_URL = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s

export function sourceFromUrl(url: string): ClaudeSource {
	const match = DATA_URL.exec(url)
	if (match) return { type: 'base64', media_type: match[1]!, data: match[2]! }
	return { type: 'url', url }
}

/** Undefined for sources OpenAI cannot carry as a URL (Files API ids, plain text documents). */
export function urlFromSource(source: unknown): string | undefined {
	if (typeof source !== 'object' || source === null) return undefined
	const value = source as Record<string, unknown>
	if (value.type === 'base64' && typeof value.media_type === 'string' && typeof value.data === 'string') return `data:${value.media_type};base64,${value.data}`
	if (value.type === 'url' && typeof value.url === 'string') return value.url
	return undefined
}
