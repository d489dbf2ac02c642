/**
 * Stand-ins for the services sign-in talks to, as a `fetch` for `createTestApp`: GitHub, LinuxDO
 * Connect, a WeChat server and Cloudflare Turnstile, answering in their documented JSON shapes.
 * Each fake checks the credentials Ferry must send, so a request built wrongly fails the sign-in.
 * Also a Telegram Login Widget signer, written from Telegram's documentation.
 */
import { createHash, createHmac } from 'node:crypto'

export const FAKE_WECHAT_SERVER = 'https://wechat.test'
export const FAKE_CLIENT = { id: 'client-id-1', secret: 'client-secret-1' }
export const FAKE_WECHAT_TOKEN = 'wechat-server-token'

export type GitHubProfile = { id: number; login: string; name: string | null; email: string | null }
export type LinuxDOProfile = { id: number; username: string; name: string; active: boolean; trust_level: number }

const json = (body: unknown, status = 200) => Response.json(body, { status })

export function createFakeProviders() {
	/** Authorization code → profile, for each OAuth provider; a code works once, like the real ones. */
	const githubCodes = new Map<string, GitHubProfile>()
	const linuxdoCodes = new Map<string, LinuxDOProfile>()
	const tokens = new Map<string, GitHubProfile | LinuxDOProfile>()
	/** WeChat code → the server's whole answer. */
	const weChatAnswers = new Map<string, { success: boolean; message: string; data?: string }>()
	const requests: { method: string; url: string }[] = []

	function issueToken(profile: GitHubProfile | LinuxDOProfile) {
		const token = `token-${crypto.randomUUID()}`
		tokens.set(token, profile)
		return token
	}

	async function github(request: Request, url: URL) {
		if (url.href === 'https://github.com/login/oauth/access_token' && request.method === 'POST') {
			if (request.headers.get('accept') !== 'application/json') return new Response('access_token=x&scope=', { status: 200 })
			const body = await request.json() as Record<string, string>
			const profile = githubCodes.get(body.code ?? '')
			if (body.client_id !== FAKE_CLIENT.id || body.client_secret !== FAKE_CLIENT.secret) return json({ error: 'incorrect_client_credentials' })
			if (!profile) return json({ error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' })
			githubCodes.delete(body.code!)
			return json({ access_token: issueToken(profile), token_type: 'bearer', scope: 'user:email' })
		}
		if (url.href === 'https://api.github.com/user' && request.method === 'GET') {
			const profile = tokens.get(request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '')
			if (!profile || !request.headers.get('user-agent')) return json({ message: 'Bad credentials' }, 401)
			return json(profile)
		}
		return undefined
	}

	async function linuxdo(request: Request, url: URL) {
		if (url.href === 'https://connect.linux.do/oauth2/token' && request.method === 'POST') {
			const basic = `Basic ${Buffer.from(`${FAKE_CLIENT.id}:${FAKE_CLIENT.secret}`).toString('base64')}`
			if (request.headers.get('authorization') !== basic) return json({ error: 'invalid_client' }, 401)
			const form = new URLSearchParams(await request.text())
			const profile = linuxdoCodes.get(form.get('code') ?? '')
			if (form.get('grant_type') !== 'authorization_code' || !profile) return json({ error: 'invalid_grant' }, 400)
			linuxdoCodes.delete(form.get('code')!)
			return json({ access_token: issueToken(profile), token_type: 'bearer', expires_in: 3600 })
		}
		if (url.href === 'https://connect.linux.do/api/user' && request.method === 'GET') {
			const profile = tokens.get(request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '')
			return profile ? json(profile) : json({ error: 'invalid_token' }, 401)
		}
		return undefined
	}

	function weChat(request: Request, url: URL) {
		if (url.origin !== FAKE_WECHAT_SERVER || url.pathname !== '/api/wechat/user') return undefined
		if (request.headers.get('authorization') !== FAKE_WECHAT_TOKEN) return json({ success: false, message: 'unauthorized' }, 401)
		return json(weChatAnswers.get(url.searchParams.get('code') ?? '') ?? { success: false, message: 'invalid or expired verification code' })
	}

	async function turnstile(request: Request, url: URL) {
		if (url.href !== 'https://challenges.cloudflare.com/turnstile/v0/siteverify') return undefined
		const form = new URLSearchParams(await request.text())
		return json({ success: form.get('response') === 'good-turnstile-token' })
	}

	async function fetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
		const request = new Request(input, init)
		const url = new URL(request.url)
		requests.push({ method: request.method, url: url.href })
		const answer = await github(request, url) ?? await linuxdo(request, url) ?? weChat(request, url) ?? await turnstile(request, url)
		if (!answer) throw new TypeError(`fake network: no route to ${url.origin}`)
		return answer
	}

	return {
		fetch,
		requests,
		github: { authorize: (code: string, profile: GitHubProfile) => githubCodes.set(code, profile) },
		linuxdo: { authorize: (code: string, profile: LinuxDOProfile) => linuxdoCodes.set(code, profile) },
		weChat: {
			answer: (code: string, answer: { success: boolean; message: string; data?: string }) => weChatAnswers.set(code, answer),
			user: (code: string, weChatId: string) => weChatAnswers.set(code, { success: true, message: '', data: weChatId }),
		},
	}
}

export type FakeProviders = ReturnType<typeof createFakeProviders>

/** What the Telegram widget hands the page: the fields plus `hash`, signed with the bot token. */
export function signTelegramLogin(botToken: string, fields: Record<string, string>): Record<string, string> {
	const dataCheckString = Object.keys(fields).sort().map((key) => `${key}=${fields[key]}`).join('\n')
	const secretKey = createHash('sha256').update(botToken).digest()
	return { ...fields, hash: createHmac('sha256', secretKey).update(dataCheckString).digest('hex') }
}
