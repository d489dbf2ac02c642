/**
 * Midjourney Proxy (type 2) and Midjourney Proxy Plus (type 5): drawing tasks on a midjourney-proxy
 * deployment. Ferry does not relay them yet (the task adaptor will live here); until then the types
 * have their name and their models, the drawing actions, and no capability: nothing routes to them.
 */
import { CHANNEL_TYPE } from '@shared/channel-type'
import type { ProviderAdaptor } from '../types'

/** The drawing actions, named as models (seed 001 §4). */
const ACTION_MODELS = [
	'mj_imagine', 'mj_variation', 'mj_reroll', 'mj_blend', 'mj_upscale', 'mj_describe', 'mj_uploads',
	'mj_zoom', 'mj_custom_zoom', 'mj_shorten', 'mj_modal', 'mj_inpaint', 'mj_pan',
	'mj_high_variation', 'mj_low_variation', 'swap_face',
]

export const midjourney: ProviderAdaptor = {
	type: CHANNEL_TYPE.midjourney,
	name: 'Midjourney Proxy',
	// A self-hosted proxy: the channel names its address.
	defaultBaseUrl: '',
	defaultModels: ACTION_MODELS,
}

export const midjourneyPlus: ProviderAdaptor = {
	type: CHANNEL_TYPE.midjourneyPlus,
	name: 'Midjourney Proxy Plus',
	defaultBaseUrl: '',
	defaultModels: ACTION_MODELS,
}
