/**
 * The OpenAPI 3.1 document of every route (`/openapi/json`) and its reference page (`/openapi`),
 * made by @elysiajs/openapi from the routes' own zod schemas (docs/architecture.md#the-management-api): nothing is written twice.
 *
 * The plugin's pages load their script from a CDN by default (Scalar from jsDelivr, Swagger UI
 * from unpkg). A gateway often runs where the internet is out of reach, so the page is Swagger UI
 * with its bundle and stylesheet served by Ferry itself from the `swagger-ui-dist` package, embedded
 * in the binary like the console's files: the page needs nothing but this server.
 *
 * The plugin (a 270 KB module) loads on the first request for the page or the document, not at
 * start: a gateway that is never asked for its API reference never pays its memory.
 */
import { Elysia } from 'elysia'
import { z } from 'zod'
import swaggerBundle from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' }
import swaggerStyles from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' }
import packageJson from '../../../package.json' with { type: 'json' }

export const OPENAPI_PATH = '/openapi'
const ASSETS_PATH = `${OPENAPI_PATH}/assets`
const ONE_DAY_SECONDS = 86_400

/**
 * A route's schema as JSON Schema, as the client sends it (`io: 'input'`: before coercions and
 * defaults). Refinements and transforms have no JSON Schema form and are left out, never fatal.
 */
function zodToJsonSchema(schema: unknown) {
	try {
		return z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' })
	} catch {
		return {}
	}
}

const DESCRIPTION = [
	'Ferry\'s management API (`/api`, answers `{ success, message, data }`) and relay (`/v1`, `/v1beta`, `/pg`).',
	'The management API authenticates with the console\'s session cookie or a system access token in `Authorization`,',
	'each together with the header `New-Api-User: <user id>`. The relay takes an API token (`sk-…`) as a bearer,',
	'as `x-api-key` (Claude format) or as `x-goog-api-key` / `?key=` (Gemini format); its bodies are the providers\' own',
	'request formats (OpenAI, Anthropic, Google), read by the relay itself.',
].join(' ')

/** Paths that are not API: the console's pages, and catch-alls that only answer "not implemented" or "not found". */
const EXCLUDED_PATHS = ['/', /\*$/]

/**
 * Gemini's calls are one route with the model and the method in the last segment
 * (`models/{model}:{method}`), which the router sees as a wildcard: they are described here.
 */
const GEMINI_METHODS = ['generateContent', 'streamGenerateContent', 'embedContent'] as const
const geminiPaths = Object.fromEntries(GEMINI_METHODS.map((method) => [`/v1beta/models/{model}:${method}`, {
	post: {
		tags: ['relay'],
		operationId: `postGemini${method[0]!.toUpperCase()}${method.slice(1)}`,
		summary: `Gemini ${method} (also under /v1/models/{model}:${method})`,
		parameters: [{ name: 'model', in: 'path', required: true, schema: { type: 'string' as const } }],
		requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' as const, description: 'Google\'s request format' } } } },
		responses: { 200: { description: 'Google\'s response format' } },
	},
}]))

function cachedFile(path: string, contentType: string) {
	let gzipped: Promise<Uint8Array<ArrayBuffer>> | undefined
	return async ({ request }: { request: Request }) => {
		const headers = { 'content-type': contentType, 'cache-control': `public, max-age=${ONE_DAY_SECONDS}`, vary: 'accept-encoding' }
		if (!/\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')) return new Response(Bun.file(path), { headers })
		gzipped ??= Bun.file(path).bytes().then((bytes) => new Uint8Array(Bun.gzipSync(bytes)))
		return new Response(await gzipped, { headers: { ...headers, 'content-encoding': 'gzip' } })
	}
}

type Operation = { tags?: string[]; requestBody?: { content?: Record<string, unknown> } }
type OpenApiDocument = { paths?: Record<string, Record<string, Operation>> }
type RouteWithBody = { method: string; path: string; hooks: { body?: unknown } }

/** Each operation under the tag of its part: the management API (`/api`) or the relay (everything else). */
function tagByPart(document: OpenApiDocument) {
	for (const [path, operations] of Object.entries(document.paths ?? {})) {
		for (const operation of Object.values(operations)) operation.tags ??= [path.startsWith('/api/') ? 'management' : 'relay']
	}
}

/**
 * The plugin names a body's media types after the route's parsers, and `/api` reads JSON with a
 * parser of its own (plugins/request-body.ts), which it cannot name: such bodies would be listed with
 * no schema. They are JSON, so the document lists them as JSON.
 */
function describeJsonBodies(document: OpenApiDocument, routes: readonly RouteWithBody[]) {
	for (const route of routes) {
		const body = route.hooks.body
		if (!body || typeof body !== 'object' || !('~standard' in body)) continue
		const path = route.path.replace(/:(\w+)/g, '{$1}')
		const operation = document.paths?.[path]?.[route.method.toLowerCase()]
		if (operation?.requestBody && Object.keys(operation.requestBody.content ?? {}).length === 0) {
			operation.requestBody.content = { 'application/json': { schema: zodToJsonSchema(body) } }
		}
	}
	return document
}

/**
 * The plugin on an app of its own, made on first use. The plugin describes the routes its app
 * sees; that app is told the whole app's routes (`routes`), read when the document is asked for.
 */
async function documentationApp(routes: () => readonly unknown[]) {
	const { openapi } = await import('@elysiajs/openapi')
	const plugin = openapi({
		path: OPENAPI_PATH,
		provider: 'swagger-ui',
		swagger: { cdn: `${ASSETS_PATH}/swagger-ui-bundle.js`, theme: `${ASSETS_PATH}/swagger-ui.css` },
		exclude: { paths: EXCLUDED_PATHS },
		mapJsonSchema: { zod: zodToJsonSchema },
		documentation: {
			info: { title: 'Ferry', version: packageJson.version, description: DESCRIPTION },
			paths: geminiPaths,
			tags: [
				{ name: 'relay', description: 'OpenAI, Claude and Gemini formats, authenticated with an API token' },
				{ name: 'management', description: 'The console\'s API under /api' },
			],
		},
	})
	const documentation = new Elysia({ name: 'ferry-openapi' })
	// Elysia hands a plugin its parent's routes through this (protected) method: here, the whole app's.
	const parent: { getGlobalRoutes: () => readonly unknown[] } = documentation as never
	parent.getGlobalRoutes = routes
	return documentation
		// A local hook: it runs for the plugin's routes, used below, and for no other route.
		.onAfterHandle(({ path, response }) => {
			if (path !== `${OPENAPI_PATH}/json`) return
			describeJsonBodies(response as OpenApiDocument, routes() as RouteWithBody[])
			tagByPart(response as OpenApiDocument)
		})
		.use(plugin)
}

/**
 * `routes`: every route of the app, asked for each time the document is (the app is still being
 * built here, and the management API loads its routes on first use).
 */
export function openApiRoutes({ routes }: { routes: () => Promise<readonly unknown[]> }) {
	let documentation: ReturnType<typeof documentationApp> | undefined
	let current: readonly unknown[] = []
	const answer = async ({ request }: { request: Request }) => {
		current = await routes()
		return (await (documentation ??= documentationApp(() => current))).handle(request)
	}
	return new Elysia({ name: 'ferry-openapi-routes' })
		.get(OPENAPI_PATH, answer, { detail: { hide: true } })
		.get(`${OPENAPI_PATH}/json`, answer, { detail: { hide: true } })
		.get(`${ASSETS_PATH}/swagger-ui-bundle.js`, cachedFile(swaggerBundle, 'text/javascript; charset=utf-8'), { detail: { hide: true } })
		.get(`${ASSETS_PATH}/swagger-ui.css`, cachedFile(swaggerStyles, 'text/css; charset=utf-8'), { detail: { hide: true } })
}
