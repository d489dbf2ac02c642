import type { Api } from '@ui/lib/api'

/** The public content reads (docs/specification/accounts-and-settings.md#other-tab); each answers a string (empty when unset). */
export const contentPaths = {
	homePage: '/api/home_page_content',
	about: '/api/about',
	notice: '/api/notice',
} as const

/** Loaders render the page whatever happens: content that cannot be read counts as unset. */
export async function fetchContent(api: Api, path: (typeof contentPaths)[keyof typeof contentPaths]): Promise<string> {
	try {
		const envelope = await api.get<unknown>(path)
		return envelope.success && typeof envelope.data === 'string' ? envelope.data : ''
	} catch {
		return ''
	}
}
