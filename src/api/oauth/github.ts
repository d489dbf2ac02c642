/** GitHub OAuth: the authorization code for an access token, the token for the profile. */
import { z } from 'zod'
import type { Dependencies } from '@/dependencies'
import { refused } from '../errors'
import type { Identity } from './identities'
import { aboutProvider, OAUTH_MESSAGES } from './messages'
import { fetchProviderJson } from './provider-http'

const LABEL = 'GitHub'
const GITHUB_TOKEN_URL = 'https://github.com/login/oauth/access_token'
const GITHUB_USER_URL = 'https://api.github.com/user'

// GitHub answers a bad code with 200 and `{ error, error_description }`.
const tokenSchema = z.object({ access_token: z.string().optional(), error: z.string().optional() })
const profileSchema = z.object({
	id: z.union([z.number().int().positive(), z.string().regex(/^\d+$/)]),
	login: z.string(),
	name: z.string().nullish(),
	email: z.string().nullish(),
})

/** The numeric id is kept: unlike the login name it never changes hands. */
export async function githubIdentity(dependencies: Dependencies, code: string): Promise<Identity> {
	const { options } = dependencies
	const clientId = options.get('GitHubClientId')
	const clientSecret = options.get('GitHubClientSecret')
	if (!clientId || !clientSecret) throw refused(aboutProvider(OAUTH_MESSAGES.notConfigured, LABEL))
	const token = await fetchProviderJson(dependencies, LABEL, GITHUB_TOKEN_URL, {
		method: 'POST',
		headers: { accept: 'application/json', 'content-type': 'application/json' },
		body: JSON.stringify({ client_id: clientId, client_secret: clientSecret, code }),
	}, tokenSchema)
	if (!token.access_token) throw refused(aboutProvider(OAUTH_MESSAGES.codeRejected, LABEL))
	const profile = await fetchProviderJson(dependencies, LABEL, GITHUB_USER_URL, {
		headers: { authorization: `Bearer ${token.access_token}`, accept: 'application/vnd.github+json', 'user-agent': 'Ferry' },
	}, profileSchema)
	return { id: String(profile.id), displayName: profile.name || profile.login }
}
