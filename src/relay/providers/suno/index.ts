/**
 * Suno (type 36): music and lyrics tasks on a Suno API deployment (NOTES.md). The channel's base
 * URL names the deployment; its key is sent as a bearer token.
 */
import { CHANNEL_TYPE } from '@shared/channel-type'
import { TASK_PLATFORM } from '@shared/task-constants'
import type { ProviderAdaptor } from '../types'
import { fetchRequest, readFetch, readSubmit, submitRequest } from './wire'

export const suno: ProviderAdaptor = {
	type: CHANNEL_TYPE.suno,
	name: 'Suno',
	// A self-hosted API: the channel names its base path.
	defaultBaseUrl: '',
	defaultModels: ['suno_music', 'suno_lyrics'],
	tasks: { platform: TASK_PLATFORM.suno, submitRequest, readSubmit, fetchRequest, readFetch },
}
