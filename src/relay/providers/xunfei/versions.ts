/**
 * Spark API versions (the channel's `other`, `v2.1` when empty): each has its own path and its own
 * `domain` parameter. `lite` was called `general` before; `v2.1` (`generalv2`) is retired upstream but
 * kept for old channels.
 */
import { DEFAULT_XUNFEI_VERSION } from '@shared/channel-type'

interface SparkVersion {
	path: string
	domain: string
}

const VERSIONS: Record<string, SparkVersion> = {
	'v1.1': { path: '/v1.1/chat', domain: 'lite' },
	'v2.1': { path: '/v2.1/chat', domain: 'generalv2' },
	'v3.1': { path: '/v3.1/chat', domain: 'generalv3' },
	'pro-128k': { path: '/chat/pro-128k', domain: 'pro-128k' },
	'v3.5': { path: '/v3.5/chat', domain: 'generalv3.5' },
	'max-32k': { path: '/chat/max-32k', domain: 'max-32k' },
	'v4.0': { path: '/v4.0/chat', domain: '4.0Ultra' },
}

/** A model named `SparkDesk-v3.5` asks for that version whatever the channel's default. */
const VERSIONED_MODEL = /^SparkDesk-(v\d+\.\d+)$/i

class SparkVersionError extends Error {}

export function sparkVersion(channelVersion: string, model: unknown): SparkVersion {
	const fromModel = typeof model === 'string' ? VERSIONED_MODEL.exec(model)?.[1]?.toLowerCase() : undefined
	const name = fromModel ?? (channelVersion.trim() || DEFAULT_XUNFEI_VERSION)
	const version = VERSIONS[name]
	if (!version) throw new SparkVersionError(`unknown iFlytek Spark version ${name}: use one of ${Object.keys(VERSIONS).join(', ')}`)
	return version
}
