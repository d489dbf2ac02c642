/**
 * An OpenID Connect provider on loopback, speaking the wire format of OpenID Connect Discovery
 * and Core: the discovery document, a token endpoint (form POST, client_secret_post) answering
 * access_token and id_token, and a userinfo endpoint read with the bearer token. A code works
 * once, as at a real provider; `failing` makes the token endpoint answer 500. A code issued with a
 * PKCE S256 challenge (RFC 7636) is exchanged only with the matching code_verifier.
 */
import { createHash } from 'node:crypto'

export type OidcClaims = { sub: string; preferred_username?: string; name?: string; email?: string }

export const FAKE_OIDC_CLIENT = { id: 'ferry-oidc-client', secret: 'oidc-client-secret-xyz' }

export function startFakeOidcProvider() {
	const codes = new Map<string, { claims: OidcClaims; challenge?: string }>()
	const tokens = new Map<string, OidcClaims>()
	const state = { failing: false, tokenRequests: 0 }
	const server: Bun.Server<undefined> = Bun.serve({
		hostname: '127.0.0.1',
		port: 0,
		async fetch(request): Promise<Response> {
			const url = new URL(request.url)
			const issuer: string = `http://127.0.0.1:${server.port}`
			if (url.pathname === '/.well-known/openid-configuration') {
				return Response.json({
					issuer,
					authorization_endpoint: `${issuer}/authorize`,
					token_endpoint: `${issuer}/token`,
					userinfo_endpoint: `${issuer}/userinfo`,
					jwks_uri: `${issuer}/jwks`,
					response_types_supported: ['code'],
					subject_types_supported: ['public'],
					id_token_signing_alg_values_supported: ['RS256'],
				})
			}
			if (url.pathname === '/token' && request.method === 'POST') {
				state.tokenRequests++
				if (state.failing) return new Response('internal error', { status: 500 })
				const form = new URLSearchParams(await request.text())
				if (form.get('client_id') !== FAKE_OIDC_CLIENT.id || form.get('client_secret') !== FAKE_OIDC_CLIENT.secret) {
					return Response.json({ error: 'invalid_client' }, { status: 401 })
				}
				const issued = codes.get(form.get('code') ?? '')
				if (form.get('grant_type') !== 'authorization_code' || !issued) return Response.json({ error: 'invalid_grant' }, { status: 400 })
				const verifier = form.get('code_verifier')
				if (issued.challenge !== undefined && (!verifier || createHash('sha256').update(verifier).digest('base64url') !== issued.challenge)) {
					return Response.json({ error: 'invalid_grant', error_description: 'PKCE verification failed' }, { status: 400 })
				}
				const { claims } = issued
				codes.delete(form.get('code')!)
				const accessToken = `at-${crypto.randomUUID()}`
				tokens.set(accessToken, claims)
				// Unsigned here: Ferry reads the identity from userinfo, not from the id_token.
				const idToken = [{ alg: 'none' }, { iss: issuer, sub: claims.sub, aud: FAKE_OIDC_CLIENT.id }]
					.map((part) => Buffer.from(JSON.stringify(part)).toString('base64url')).join('.') + '.'
				return Response.json({ access_token: accessToken, token_type: 'Bearer', expires_in: 3600, id_token: idToken }, { headers: { 'cache-control': 'no-store' } })
			}
			if (url.pathname === '/userinfo') {
				const claims = tokens.get(request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '')
				if (!claims) return new Response(null, { status: 401, headers: { 'www-authenticate': 'Bearer error="invalid_token"' } })
				return Response.json(claims)
			}
			return new Response('not found', { status: 404 })
		},
	})
	const issuer = `http://127.0.0.1:${server.port}`
	return {
		issuer,
		wellKnown: `${issuer}/.well-known/openid-configuration`,
		state,
		/** The provider will answer `code` with these claims (the user approved the sign-in); `challenge`: the request's S256 code_challenge. */
		authorize(code: string, claims: OidcClaims, challenge?: string) {
			codes.set(code, { claims, challenge })
		},
		stop: () => server.stop(true),
	}
}

export type FakeOidcProvider = ReturnType<typeof startFakeOidcProvider>
