/** LinuxDO Connect (OAuth 2): the authorization code for an access token, the token for the profile. */
import { z } from 'zod'
import type { Dependencies } from '@/dependencies'
import { refused } from '../errors'
import type { Identity } from './identities'
import { aboutProvider, OAUTH_MESSAGES } from './messages'
import { fetchProviderJson } from './provider-http'

const LABEL = 'LinuxDO'
const LINUXDO_TOKEN_URL = 'https://connect.linux.do/oauth2/token'
const LINUXDO_USER_URL = 'https://connect.linux.do/api/user'

const tokenSchema = z.object({ access_token: z.string().optional(), error: z.string().optional() })
const profileSchema = z.object({
	id: z.union([z.number().int().positive(), z.string().regex(/^\d+$/)]),
	username: z.string(),
	name: z.string().nullish(),
	active: z.boolean().optional(),
	trust_level: z.number().optional(),
})

export async function linuxdoIdentity(dependencies: Dependencies, code: string): Promise<Identity> {
	const { options } = dependencies
	const clientId = options.get('LinuxDOClientId')
	const clientSecret = options.get('LinuxDOClientSecret')
	if (!clientId || !clientSecret) throw refused(aboutProvider(OAUTH_MESSAGES.notConfigured, LABEL))
	const form = new URLSearchParams({ grant_type: 'authorization_code', code })
	const serverAddress = options.get('ServerAddress')
	if (serverAddress) form.set('redirect_uri', `${serverAddress}/oauth/linuxdo`)
	const token = await fetchProviderJson(dependencies, LABEL, LINUXDO_TOKEN_URL, {
		method: 'POST',
		headers: {
			authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
			accept: 'application/json',
			'content-type': 'application/x-www-form-urlencoded',
		},
		body: form,
	}, tokenSchema)
	if (!token.access_token) throw refused(aboutProvider(OAUTH_MESSAGES.codeRejected, LABEL))
	const profile = await fetchProviderJson(dependencies, LABEL, LINUXDO_USER_URL, {
		headers: { authorization: `Bearer ${token.access_token}`, accept: 'application/json' },
	}, profileSchema)
	if (profile.active === false) throw refused(OAUTH_MESSAGES.linuxdoInactive)
	return { id: String(profile.id), displayName: profile.name || profile.username }
}
