/**
 * Kling's API token: a JWT (HS256, signed by jose) made from the channel key `AccessKey|SecretKey`:
 * issued by the access key, valid for 30 minutes from 5 seconds ago (clocks differ). Each request
 * signs a fresh one.
 */
const TOKEN_LIFETIME_SECONDS = 30 * 60
const CLOCK_SKEW_SECONDS = 5
const MILLISECONDS_PER_SECOND = 1000

class KlingKeyError extends Error {}

export async function klingToken(key: string, now: number): Promise<string> {
	const [accessKey, secretKey, ...rest] = key.split('|').map((part) => part.trim())
	if (!accessKey || !secretKey || rest.length > 0) throw new KlingKeyError('a Kling key is AccessKey|SecretKey')
	const seconds = Math.floor(now / MILLISECONDS_PER_SECOND)
	// jose loads on the first Kling call (src/auth/session.ts says why).
	const { SignJWT } = await import('jose')
	return new SignJWT({ iss: accessKey, exp: seconds + TOKEN_LIFETIME_SECONDS, nbf: seconds - CLOCK_SKEW_SECONDS })
		.setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
		.sign(new TextEncoder().encode(secretKey))
}
