/** Server rendering helpers of the test/ui suites: a console page through the app's handler, and its parts. */
import type { TestApp } from '../helpers/app'

/** Renders `path` as a browser with these cookies would ask for it (empty entries are dropped). */
export async function renderPage(ferry: Pick<TestApp, 'app'>, path: string, cookies: (string | false | undefined)[] = []) {
	const cookie = cookies.filter(Boolean).join('; ')
	const response = await ferry.app.handle(new Request(`http://localhost${path}`, { headers: cookie ? { cookie } : {} }))
	return { response, status: response.status, html: await response.text() }
}

/** The rendered page without the hydration data, whose JSON repeats query values. */
export const markup = (html: string) => html.slice(0, html.indexOf('window.__staticRouterHydrationData'))

export function hydrationData(html: string) {
	const match = html.match(/window\.__staticRouterHydrationData=(.*?);window\.__documentProps=/)
	if (!match) throw new Error('no hydration data script in the page')
	return JSON.parse(match[1]!) as { loaderData: Record<string, any> }
}
