/**
 * Which drawing action a midjourney-proxy submit is (docs/architecture.md#the-task-pipeline, new-api's rules where the specification is
 * silent): the path names most; `action` (Plus) reads it from the button's `customId`, `change`
 * from `action` + `index`, `simple-change` from `content` ("<task id> U1"). Those and `modal` act on
 * an earlier task (`taskId`): follow-ups. The model billed is `mj_<action>` (`swap_face` for faces).
 */
import { MJ_ACTION, type MjAction } from '@shared/task-constants'
import { relayErrors } from '../errors'

/** The submit paths Ferry relays, after `/mj/`. */
export const MJ_SUBMIT_PATHS = [
	'submit/imagine', 'submit/blend', 'submit/describe', 'submit/shorten', 'submit/upload-discord-images',
	'submit/action', 'submit/change', 'submit/simple-change', 'submit/modal', 'insight-face/swap',
] as const
export type MjSubmitPath = (typeof MJ_SUBMIT_PATHS)[number]

export interface ResolvedAction {
	action: MjAction
	/** The earlier task a follow-up acts on (its midjourney-proxy id). */
	taskId?: string
}

const CHANGE_ACTIONS: readonly string[] = [MJ_ACTION.upscale, MJ_ACTION.variation, MJ_ACTION.reroll]
const MAX_INDEX = 4

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '')
const required = (body: Record<string, unknown>, field: string) => {
	const value = text(body[field])
	if (!value) throw relayErrors.badRequest(`${field} is required`)
	return value
}

/** A button's `customId`, e.g. `MJ::JOB::upsample::2::<hash>` or `MJ::Outpaint::50::1::<hash>`. */
function actionOfCustomId(customId: string): MjAction {
	const parts = customId.split('::')
	const name = (parts[1] === 'JOB' ? parts[2] : parts[1]) ?? ''
	if (name.includes('upsample')) return MJ_ACTION.upscale
	if (name === 'low_variation') return MJ_ACTION.lowVariation
	if (name === 'high_variation') return MJ_ACTION.highVariation
	if (name.includes('variation')) return MJ_ACTION.variation
	if (name.includes('pan')) return MJ_ACTION.pan
	if (name.includes('reroll')) return MJ_ACTION.reroll
	if (name === 'Outpaint') return MJ_ACTION.zoom
	if (name === 'CustomZoom') return MJ_ACTION.customZoom
	if (name === 'Inpaint') return MJ_ACTION.inpaint
	throw relayErrors.badRequest(`unknown customId action: ${customId.slice(0, 100)}`)
}

/** `content` of a simple change: a task id, a space, then U1–U4, V1–V4 or R. */
function simpleChange(content: string): ResolvedAction {
	const match = /^(\S+) ([UuVv])([1-4])$|^(\S+) ([Rr])$/.exec(content)
	if (!match) throw relayErrors.badRequest('content must be "<task id> U1"–"U4", "V1"–"V4" or "R"')
	if (match[5]) return { action: MJ_ACTION.reroll, taskId: match[4] }
	return { action: match[2]!.toUpperCase() === 'U' ? MJ_ACTION.upscale : MJ_ACTION.variation, taskId: match[1] }
}

export function resolveAction(path: MjSubmitPath, body: Record<string, unknown>): ResolvedAction {
	switch (path) {
		case 'submit/imagine':
			required(body, 'prompt')
			return { action: MJ_ACTION.imagine }
		case 'submit/blend':
			if (!Array.isArray(body.base64Array) || body.base64Array.length === 0) throw relayErrors.badRequest('base64Array is required')
			return { action: MJ_ACTION.blend }
		case 'submit/describe':
			return { action: MJ_ACTION.describe }
		case 'submit/shorten':
			required(body, 'prompt')
			return { action: MJ_ACTION.shorten }
		case 'submit/upload-discord-images':
			return { action: MJ_ACTION.upload }
		case 'insight-face/swap':
			required(body, 'sourceBase64')
			required(body, 'targetBase64')
			return { action: MJ_ACTION.swapFace }
		case 'submit/action':
			return { action: actionOfCustomId(required(body, 'customId')), taskId: required(body, 'taskId') }
		case 'submit/change': {
			const taskId = required(body, 'taskId')
			const action = required(body, 'action').toUpperCase()
			if (!CHANGE_ACTIONS.includes(action)) throw relayErrors.badRequest(`action must be one of ${CHANGE_ACTIONS.join(', ')}`)
			const index = body.index
			if (action !== MJ_ACTION.reroll && !(Number.isInteger(index) && (index as number) >= 1 && (index as number) <= MAX_INDEX)) {
				throw relayErrors.badRequest(`index must be 1 to ${MAX_INDEX}`)
			}
			return { action: action as MjAction, taskId }
		}
		case 'submit/simple-change':
			return simpleChange(required(body, 'content'))
		case 'submit/modal':
			return { action: MJ_ACTION.modal, taskId: required(body, 'taskId') }
	}
}

/** The model an action is priced and routed by. */
export const modelOfAction = (action: MjAction) => (action === MJ_ACTION.swapFace ? 'swap_face' : `mj_${action.toLowerCase()}`)

/** Speed modes a client may put before `/mj` (`/fast/mj/submit/imagine`); the prefix goes upstream as sent. */
export const MJ_MODES = ['fast', 'relax', 'turbo'] as const

/** `MjModeClearEnabled`: the speed flags are taken out of the prompt. */
export const clearModes = (prompt: string) => prompt.replace(/--(?:fast|relax|turbo)\b/g, '').replace(/\s{2,}/g, ' ').trim()
