/**
 * OpenID Connect: the authorization code for tokens at the token endpoint, the access token for
 * the user info at the userinfo endpoint. The person is known by `sub`, which the provider never
 * hands to anyone else; the name is only for showing. The endpoints are the administrator's own
 * (often on a private network), so requests follow the same consent as channel base URLs.
 */
import { z } from 'zod'
import type { Dependencies } from '@/dependencies'
import { refused } from '../errors'
import type { Identity } from './identities'
import { aboutProvider, OAUTH_MESSAGES } from './messages'
import { fetchProviderJson } from './provider-http'

const LABEL = 'OIDC'
const POLICY = 'upstream'
/** `sub` is at most 255 ASCII characters by the OpenID Connect Core rules. */
const SUBJECT_MAX_LENGTH = 255

const tokenSchema = z.object({ access_token: z.string().optional(), id_token: z.string().optional(), error: z.string().optional() })
const userInfoSchema = z.object({
	sub: z.union([z.string(), z.number()]).optional(),
	preferred_username: z.string().nullish(),
	name: z.string().nullish(),
	email: z.string().nullish(),
})
const discoverySchema = z.object({
	authorization_endpoint: z.url(),
	token_endpoint: z.url(),
	userinfo_endpoint: z.url(),
})

/** The OIDC callback URL the provider must know: the console's /oauth/oidc page. */
function redirectUri(dependencies: Dependencies) {
	const serverAddress = dependencies.options.get('ServerAddress')
	return serverAddress ? `${serverAddress}/oauth/oidc` : undefined
}

/** `codeVerifier`: the PKCE verifier whose S256 challenge the authorization request carried. */
export async function oidcIdentity(dependencies: Dependencies, code: string, codeVerifier: string): Promise<Identity> {
	const { options } = dependencies
	const clientId = options.get('oidc.client_id')
	const clientSecret = options.get('oidc.client_secret')
	const tokenEndpoint = options.get('oidc.token_endpoint')
	const userInfoEndpoint = options.get('oidc.user_info_endpoint')
	if (!clientId || !clientSecret || !tokenEndpoint || !userInfoEndpoint) throw refused(aboutProvider(OAUTH_MESSAGES.notConfigured, LABEL))
	// client_secret_post: every provider accepts it, and it needs no escaping rules of Basic.
	const form = new URLSearchParams({ grant_type: 'authorization_code', code, client_id: clientId, client_secret: clientSecret, code_verifier: codeVerifier })
	const redirect = redirectUri(dependencies)
	if (redirect) form.set('redirect_uri', redirect)
	const token = await fetchProviderJson(dependencies, LABEL, tokenEndpoint, {
		method: 'POST',
		headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
		body: form,
	}, tokenSchema, POLICY)
	if (!token.access_token) throw refused(aboutProvider(OAUTH_MESSAGES.codeRejected, LABEL))
	const info = await fetchProviderJson(dependencies, LABEL, userInfoEndpoint, {
		headers: { authorization: `Bearer ${token.access_token}`, accept: 'application/json' },
	}, userInfoSchema, POLICY)
	const subject = String(info.sub ?? '').trim()
	if (!subject || subject.length > SUBJECT_MAX_LENGTH) throw refused(OAUTH_MESSAGES.oidcNoSubject)
	return { id: subject, displayName: info.preferred_username || info.name || info.email?.split('@')[0] || undefined }
}

/**
 * The three endpoints a provider's discovery document names. A document that cannot be fetched
 * or lacks one of them is refused as the provider's failure, in the caller's language.
 */
export async function discoverOidcEndpoints(dependencies: Dependencies, wellKnown: string) {
	const document = await fetchProviderJson(dependencies, LABEL, wellKnown, { headers: { accept: 'application/json' } }, discoverySchema, POLICY)
	return {
		'oidc.authorization_endpoint': document.authorization_endpoint,
		'oidc.token_endpoint': document.token_endpoint,
		'oidc.user_info_endpoint': document.userinfo_endpoint,
	} as const
}
