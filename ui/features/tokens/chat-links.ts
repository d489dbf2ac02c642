/**
 * The chat menu of a token row. `status.chats` is the Chats option: a list of one-entry maps from a
 * client's name to its URL template. Templates may hold `{key}` (the `sk-` key), `{address}` (the
 * server address, URL-encoded as it sits in a query) and `{cherryConfig}` (Cherry Studio's import data).
 */
export type ChatLink = { name: string; template: string }

export function chatLinks(chats: Record<string, string>[]): ChatLink[] {
	return chats.flatMap((entry) => Object.entries(entry).map(([name, template]) => ({ name, template })))
}

/** Cherry Studio reads a provider from base64 JSON: an id, the base URL and the key. */
function cherryConfig(address: string, key: string) {
	const json = JSON.stringify({ id: 'ferry', baseUrl: address, apiKey: key })
	return encodeURIComponent(btoa(json))
}

/** The link to open, or '' when the template is empty (a configuration error). */
export function chatUrl(template: string, key: string, address: string): string {
	if (!template.trim()) return ''
	return template
		.replaceAll('{cherryConfig}', cherryConfig(address, key))
		.replaceAll('{address}', encodeURIComponent(address))
		.replaceAll('{key}', key)
}
