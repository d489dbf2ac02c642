/**
 * Midjourney Proxy (type 2) and Midjourney Proxy Plus (type 5): drawing tasks on a midjourney-proxy
 * deployment (NOTES.md). Both speak the same API; Plus deployments also take the `action`, `modal`
 * and `shorten` calls, whose paths the task relay passes through.
 */
import { CHANNEL_TYPE } from '@shared/channel-type'
import { TASK_PLATFORM } from '@shared/task-constants'
import type { ProviderAdaptor, TaskAdaptor } from '../types'
import { fetchRequest, readFetch, readRequest, readSubmit, submitRequest } from './wire'

/** The drawing actions, named as models (docs/specification/tasks.md#channels): `mj_<action>`, and `swap_face`. */
const ACTION_MODELS = [
	'mj_imagine', 'mj_variation', 'mj_reroll', 'mj_blend', 'mj_upscale', 'mj_describe', 'mj_upload',
	'mj_zoom', 'mj_custom_zoom', 'mj_shorten', 'mj_modal', 'mj_inpaint', 'mj_pan',
	'mj_high_variation', 'mj_low_variation', 'swap_face',
]

const drawingTasks: TaskAdaptor = { platform: TASK_PLATFORM.midjourney, submitRequest, readSubmit, fetchRequest, readFetch, readRequest }

export const midjourney: ProviderAdaptor = {
	type: CHANNEL_TYPE.midjourney,
	name: 'Midjourney Proxy',
	// A self-hosted proxy: the channel names its address.
	defaultBaseUrl: '',
	defaultModels: ACTION_MODELS,
	tasks: drawingTasks,
}

export const midjourneyPlus: ProviderAdaptor = {
	type: CHANNEL_TYPE.midjourneyPlus,
	name: 'Midjourney Proxy Plus',
	defaultBaseUrl: '',
	defaultModels: ACTION_MODELS,
	tasks: drawingTasks,
}
