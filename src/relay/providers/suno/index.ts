/**
 * Suno (type 36): music and lyrics tasks on a Suno API deployment. Ferry does not relay them yet
 * (the task adaptor will live here); until then the type has its name and its models (seed 001 §9)
 * and no capability: nothing routes to it.
 */
import { CHANNEL_TYPE } from '@shared/channel-type'
import type { ProviderAdaptor } from '../types'

export const suno: ProviderAdaptor = {
	type: CHANNEL_TYPE.suno,
	name: 'Suno',
	// A self-hosted API: the channel names its base path.
	defaultBaseUrl: '',
	defaultModels: ['suno_music', 'suno_lyrics'],
}
