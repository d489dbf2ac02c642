import type { DocsPage } from '@shared/docs'
import type { Api, Envelope } from '@ui/lib/api'

/** `GET /api/docs`: the page a console path names (admins). */
export function fetchDocsPage(api: Api, consolePath: string): Promise<Envelope<DocsPage>> {
	return api.get<DocsPage>(`/api/docs?path=${encodeURIComponent(consolePath)}`)
}
