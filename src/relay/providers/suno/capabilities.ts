import { CHANNEL_TYPE } from '@shared/channel-type'
import { TASK_PLATFORM } from '@shared/task-constants'
import { type ChannelTypeDescription, serving } from '../types'

export const sunoType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.suno,
	name: 'Suno',
	// A self-hosted API: the channel names its base path.
	defaultBaseUrl: '',
	defaultModels: ['suno_music', 'suno_lyrics'],
	serves: serving({
		endpoints: {},
		taskPlatform: TASK_PLATFORM.suno,
	}),
}
