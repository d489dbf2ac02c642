/**
 * Kling (type 50): video generation on Kling's own task API (NOTES.md), for OpenAI clients through
 * `/v1/videos` and for Kling's clients through its native paths (`/kling/v1/videos/…`). The
 * channel's key is `AccessKey|SecretKey`; each request carries a fresh signed token.
 */
import { CHANNEL_TYPE } from '@shared/channel-type'
import type { ProviderAdaptor } from '../types'
import { klingVideos } from './videos'

export const kling: ProviderAdaptor = {
	type: CHANNEL_TYPE.kling,
	name: 'Kling',
	defaultBaseUrl: 'https://api-singapore.klingai.com',
	keyFormat: 'AccessKey|SecretKey',
	defaultModels: ['kling-v2-1', 'kling-v2-1-master', 'kling-v1-6'],
	videos: klingVideos,
}
