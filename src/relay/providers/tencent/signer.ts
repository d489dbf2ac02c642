/**
 * Tencent Cloud API 3.0 request signing, TC3-HMAC-SHA256 ("Signature v3"): a canonical request over
 * the method, path, signed headers and body hash, signed with a key derived from the secret, the UTC
 * date and the service name.
 */
import { createHash, createHmac } from 'node:crypto'

const TC3_ALGORITHM = 'TC3-HMAC-SHA256'
const SIGNED_HEADERS = 'content-type;host'
const SCOPE_TERMINATOR = 'tc3_request'
const MILLISECONDS_PER_SECOND = 1000

export interface SigningInput {
	secretId: string
	secretKey: string
	service: string
	host: string
	contentType: string
	/** Unix seconds, the `X-TC-Timestamp` header. */
	timestamp: number
	payload: string
}

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text, 'utf8').digest()

/** The credential date is the UTC day of the timestamp, never the local one. */
function utcDate(timestamp: number) {
	return new Date(timestamp * MILLISECONDS_PER_SECOND).toISOString().slice(0, 10)
}

export function tc3Signature(input: SigningInput) {
	const canonicalRequest = [
		'POST', '/', '',
		`content-type:${input.contentType}\nhost:${input.host}\n`,
		SIGNED_HEADERS,
		sha256Hex(input.payload),
	].join('\n')
	const date = utcDate(input.timestamp)
	const scope = `${date}/${input.service}/${SCOPE_TERMINATOR}`
	const stringToSign = [TC3_ALGORITHM, String(input.timestamp), scope, sha256Hex(canonicalRequest)].join('\n')
	const signingKey = hmac(hmac(hmac(`TC3${input.secretKey}`, date), input.service), SCOPE_TERMINATOR)
	const signature = hmac(signingKey, stringToSign).toString('hex')
	return {
		signature,
		authorization: `${TC3_ALGORITHM} Credential=${input.secretId}/${scope}, SignedHeaders=${SIGNED_HEADERS}, Signature=${signature}`,
	}
}
