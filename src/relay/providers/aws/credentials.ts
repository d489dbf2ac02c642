/** The channel key of type 33: `AccessKeyId|SecretAccessKey|Region`, optionally `|SessionToken`. */
import type { AwsCredentials } from './signer'

export class AwsKeyError extends Error {}

interface AwsChannelKey {
	credentials: AwsCredentials
	region: string
}

const REGION_PATTERN = /^[a-z]{2}(-[a-z]+)+-\d+$/

export function parseAwsKey(key: string): AwsChannelKey {
	const [accessKeyId, secretAccessKey, region, sessionToken] = key.split('|').map((part) => part.trim())
	if (!accessKeyId || !secretAccessKey || !region) throw new AwsKeyError('an AWS key is AccessKeyId|SecretAccessKey|Region')
	// The region becomes part of a host name: anything but a region name is refused.
	if (!REGION_PATTERN.test(region)) throw new AwsKeyError(`"${region}" is not an AWS region`)
	return { credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) }, region }
}
