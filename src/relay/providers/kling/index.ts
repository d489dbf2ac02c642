/**
 * Kling (type 50): video generation on Kling's own task API (NOTES.md), for OpenAI clients through
 * `/v1/videos` and for Kling's clients through its native paths (`/kling/v1/videos/…`). The
 * channel's key is `AccessKey|SecretKey`; each request carries a fresh signed token.
 */
import { identityOf, type ProviderAdaptor } from '../types'
import { klingType } from './capabilities'
import { klingVideos } from './videos'

export const kling: ProviderAdaptor = {
	...identityOf(klingType),
	videos: klingVideos,
}
