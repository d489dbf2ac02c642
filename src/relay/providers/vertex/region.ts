/**
 * The region a Vertex AI model is served from. The channel's `other` is a region (`us-central1`),
 * or a JSON map from model to region with an optional `default`, for models deployed elsewhere.
 */
import { DEFAULT_VERTEX_REGION } from '@shared/channel-type'

export function vertexRegion(other: string, model: string): string {
	const text = other.trim()
	if (!text.startsWith('{')) return text || DEFAULT_VERTEX_REGION
	try {
		const regions = JSON.parse(text) as Record<string, unknown>
		const region = regions[model] ?? regions.default
		return typeof region === 'string' && region ? region : DEFAULT_VERTEX_REGION
	} catch {
		return DEFAULT_VERTEX_REGION
	}
}

/** `global` has no regional host. */
export function vertexHost(region: string) {
	return region === 'global' ? 'https://aiplatform.googleapis.com' : `https://${region}-aiplatform.googleapis.com`
}
