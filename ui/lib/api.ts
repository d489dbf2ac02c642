import type { Envelope as WireEnvelope } from '@shared/api'
import { createContext } from 'react-router'

/** An /api answer as the console sees it: `data` is typed by the caller and present only when `success`. */
export type Envelope<T = unknown> = Omit<WireEnvelope<T>, 'data'> & { data: T }

type ApiMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'

type ApiRequestOptions = {
	method?: ApiMethod
	body?: unknown
	/** When false a 401 is returned to the caller instead of ending the session (the login form). */
	handleUnauthorized?: boolean
}

type Transport = (
	path: string,
	init: { method: ApiMethod; headers: Record<string, string>; body?: string },
) => Promise<Response>

export type Api = {
	/** Loaders on the server call the API in-process for one page request; the browser uses fetch. */
	side: 'server' | 'browser'
	/** Whether a session may exist (server: the session cookie; browser: a stored login). */
	hasSession(): boolean
	request<T = unknown>(path: string, options?: ApiRequestOptions): Promise<Envelope<T>>
	get<T = unknown>(path: string): Promise<Envelope<T>>
	post<T = unknown>(path: string, body?: unknown, options?: ApiRequestOptions): Promise<Envelope<T>>
	put<T = unknown>(path: string, body?: unknown, options?: ApiRequestOptions): Promise<Envelope<T>>
	delete<T = unknown>(path: string, options?: ApiRequestOptions): Promise<Envelope<T>>
}

/** Messages are zh source strings, i.e. i18n keys; `values` fills their placeholders. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly values?: Record<string, string>,
	) {
		super(message)
	}
}

export const apiMessages = {
	unauthorized: '未登录或登录已过期，请重新登录',
	tooManyRequests: '请求次数过多，请稍后再试',
	serverError: '服务器内部错误，请联系管理员',
	demoSite: '本站仅作演示之用，无服务端',
	other: '错误：{message}',
} as const

export const expiredLoginPath = '/login?expired=true'

/** Loaders read the api from the router context: the server and the browser provide different transports. */
export const apiContext = createContext<Api>()

function isEnvelope(value: unknown): value is Envelope {
	return typeof value === 'object' && value !== null && typeof (value as Envelope).success === 'boolean'
}

export function createApi(side: Api['side'], transport: Transport, onUnauthorized: () => void, hasSession: () => boolean): Api {
	async function request<T>(path: string, options: ApiRequestOptions = {}): Promise<Envelope<T>> {
		const method = options.method ?? 'GET'
		const headers: Record<string, string> = {}
		let body: string | undefined
		if (options.body !== undefined) {
			headers['content-type'] = 'application/json'
			body = JSON.stringify(options.body)
		}
		const response = await transport(path, { method, headers, body })
		const handleUnauthorized = options.handleUnauthorized ?? true
		if (response.status === 401 && handleUnauthorized) {
			onUnauthorized()
			throw new ApiError(401, apiMessages.unauthorized)
		}
		if (response.status === 429) throw new ApiError(429, apiMessages.tooManyRequests)
		if (response.status === 500) throw new ApiError(500, apiMessages.serverError)
		if (response.status === 405) throw new ApiError(405, apiMessages.demoSite)
		const payload: unknown = await response.json().catch(() => undefined)
		if (isEnvelope(payload)) {
			// Extra top-level fields (GET /api/pricing's group_ratio and usable_group) stay on the envelope.
			return { ...payload, success: payload.success, message: payload.message ?? '', data: payload.data as T }
		}
		const detail = (payload as { message?: unknown } | undefined)?.message
		const message = typeof detail === 'string' && detail ? detail : `${response.status} ${response.statusText}`.trim()
		throw new ApiError(response.status, apiMessages.other, { message })
	}

	return {
		side,
		hasSession,
		request,
		get: (path) => request(path),
		post: (path, body, options) => request(path, { ...options, method: 'POST', body }),
		put: (path, body, options) => request(path, { ...options, method: 'PUT', body }),
		delete: (path, options) => request(path, { ...options, method: 'DELETE' }),
	}
}

/** Text for an error toast, already translated. */
export function describeError(error: unknown, t: (key: string, values?: Record<string, string>) => string) {
	if (error instanceof ApiError) return t(error.message, error.values)
	const message = error instanceof Error ? error.message : String(error)
	return t(apiMessages.other, { message })
}
