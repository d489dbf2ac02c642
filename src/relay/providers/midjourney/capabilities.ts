import { CHANNEL_TYPE } from '@shared/channel-type'
import { TASK_PLATFORM } from '@shared/task-constants'
import { type ChannelTypeDescription, serving } from '../types'

/** The drawing actions, named as models (docs/specification/tasks.md#channels): `mj_<action>`, and `swap_face`. */
const ACTION_MODELS = [
	'mj_imagine', 'mj_variation', 'mj_reroll', 'mj_blend', 'mj_upscale', 'mj_describe', 'mj_upload',
	'mj_zoom', 'mj_custom_zoom', 'mj_shorten', 'mj_modal', 'mj_inpaint', 'mj_pan',
	'mj_high_variation', 'mj_low_variation', 'swap_face',
]

export const midjourneyType: ChannelTypeDescription = {
	type: CHANNEL_TYPE.midjourney,
	name: 'Midjourney Proxy',
	// A self-hosted proxy: the channel names its address.
	defaultBaseUrl: '',
	defaultModels: ACTION_MODELS,
	serves: serving({
		endpoints: {},
		taskPlatform: TASK_PLATFORM.midjourney,
	}),
}

/** The same proxy in its Plus edition: the same actions, under a type of its own. */
export const midjourneyPlusType: ChannelTypeDescription = { ...midjourneyType, type: CHANNEL_TYPE.midjourneyPlus, name: 'Midjourney Proxy Plus' }
