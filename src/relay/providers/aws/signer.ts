/**
 * AWS Signature Version 4 (`AWS4-HMAC-SHA256`) for requests signed in the `Authorization` header:
 * a canonical request over the method, path, query, signed headers and body hash, signed with a key
 * derived from the secret, the UTC day, the region and the service.
 */
import { createHash, createHmac } from 'node:crypto'

const SIGV4_ALGORITHM = 'AWS4-HMAC-SHA256'
const SCOPE_TERMINATOR = 'aws4_request'
/** S3 alone signs its path as sent; every other service encodes each segment a second time. */
const SINGLE_ENCODING_SERVICE = 's3'

export interface AwsCredentials {
	accessKeyId: string
	secretAccessKey: string
	/** Temporary credentials (STS) come with a token, sent and signed as `x-amz-security-token`. */
	sessionToken?: string
}

export interface SigningInput {
	method: string
	url: URL
	/** Headers to sign besides `host`, `x-amz-date` and the session token, which are always signed. */
	headers: Record<string, string>
	body: string
	region: string
	service: string
	credentials: AwsCredentials
	/** Unix milliseconds. */
	now: number
}

interface SignedRequest {
	/** The headers to send: the given ones, `x-amz-date`, the session token and `authorization` (`host` is left to the HTTP client). */
	headers: Record<string, string>
	canonicalRequest: string
	stringToSign: string
	signature: string
}

export const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex')
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text, 'utf8').digest()

/** RFC 3986 encoding as AWS defines it: everything but `A-Za-z0-9-_.~` becomes `%XX` (upper-case hex). */
export function uriEncode(text: string) {
	return encodeURIComponent(text).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)
}

/** `20150830T123600Z`: the ISO 8601 basic form of the UTC time, without milliseconds. */
function amzDate(now: number) {
	return new Date(now).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')
}

/** The path as the service signs it: `url.pathname` is already encoded once, so non-S3 services encode it again. */
function canonicalUri(pathname: string, service: string) {
	if (pathname === '') return '/'
	if (service === SINGLE_ENCODING_SERVICE) return pathname
	return pathname.split('/').map(uriEncode).join('/')
}

function canonicalQuery(url: URL) {
	const pairs = [...url.searchParams].map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
	pairs.sort(([nameA, valueA], [nameB, valueB]) => (nameA === nameB ? (valueA < valueB ? -1 : 1) : nameA < nameB ? -1 : 1))
	return pairs.map(([name, value]) => `${name}=${value}`).join('&')
}

const canonicalValue = (value: string) => value.trim().replace(/\s+/g, ' ')

export function signingKey(secretAccessKey: string, day: string, region: string, service: string) {
	return hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, day), region), service), SCOPE_TERMINATOR)
}

export function signRequest(input: SigningInput): SignedRequest {
	const date = amzDate(input.now)
	const day = date.slice(0, 8)
	const headers: Record<string, string> = { ...input.headers, 'x-amz-date': date }
	if (input.credentials.sessionToken) headers['x-amz-security-token'] = input.credentials.sessionToken
	const signed = new Map<string, string>([['host', input.url.host]])
	for (const [name, value] of Object.entries(headers)) signed.set(name.toLowerCase(), canonicalValue(value))
	const names = [...signed.keys()].sort()
	const signedHeaders = names.join(';')
	const canonicalRequest = [
		input.method,
		canonicalUri(input.url.pathname, input.service),
		canonicalQuery(input.url),
		names.map((name) => `${name}:${signed.get(name)}\n`).join(''),
		signedHeaders,
		sha256Hex(input.body),
	].join('\n')
	const scope = `${day}/${input.region}/${input.service}/${SCOPE_TERMINATOR}`
	const stringToSign = [SIGV4_ALGORITHM, date, scope, sha256Hex(canonicalRequest)].join('\n')
	const signature = createHmac('sha256', signingKey(input.credentials.secretAccessKey, day, input.region, input.service)).update(stringToSign, 'utf8').digest('hex')
	headers.authorization = `${SIGV4_ALGORITHM} Credential=${input.credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`
	return { headers, canonicalRequest, stringToSign, signature }
}
