/**
 * midjourney-proxy's API (NOTES.md): submit answers `{code, description, result, properties}` and
 * task objects `{id, action, prompt, promptEn, description, state, submitTime, startTime,
 * finishTime, imageUrl, status, progress, failReason, buttons, properties}` (times in ms).
 */
import { MJ_ACCEPTED_CODES, TASK_STATUS } from '@shared/task-constants'
import type { TaskSubmitOutcome, UpstreamChannel, UpstreamRequest, UpstreamTaskState } from '../types'
import { answeredUnusableId, answeredWithoutTask, bareKey, jsonText, objectOr, parseAnswer, submitAnswerObject, textOf, unixSeconds, usableTaskId } from '../shared/task-wire'
import { isObject } from '../../formats/json'

/** midjourney-proxy's code for a request it found invalid; what a refusal without a code is given. */
const VALIDATION_ERROR = 4
/** midjourney-proxy Plus can cancel a task; for Ferry that is a task that failed. */
const CANCELLED = 'CANCEL'

const headers = (channel: UpstreamChannel, method: 'GET' | 'POST') => ({
	...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
	accept: 'application/json',
	'mj-api-secret': bareKey(channel.key),
})

export function submitRequest(channel: UpstreamChannel, path: string, body: Record<string, unknown>): UpstreamRequest {
	return { url: `${channel.baseUrl}${path}`, headers: headers(channel, 'POST'), body: JSON.stringify(body) }
}

export function readRequest(channel: UpstreamChannel, path: string): UpstreamRequest {
	return { method: 'GET', url: `${channel.baseUrl}${path}`, headers: headers(channel, 'GET'), body: '' }
}

export function fetchRequest(channel: UpstreamChannel, ids: readonly string[]): UpstreamRequest {
	return { url: `${channel.baseUrl}/mj/task/list-by-condition`, headers: headers(channel, 'POST'), body: JSON.stringify({ ids }) }
}

/**
 * Accepted: a 2xx answer with code 1, 21 or 22 and a usable task id in `result` (a number in some
 * deployments), or for an upload the list of uploaded addresses; such an answer whose id is not
 * usable (`usableTaskId`) is refused as a 502. Anything else is a refusal: its HTTP status when that is an error, else 400 for
 * midjourney-proxy's own refusals (banned prompt, full queue…), with its description.
 */
export function readSubmit(status: number, text: string): TaskSubmitOutcome {
	const answer = submitAnswerObject(text)
	if (!answer) return answeredWithoutTask(status, VALIDATION_ERROR)
	const code = typeof answer.code === 'number' ? answer.code : Number(answer.code)
	const description = textOf(answer.description)
	const properties = objectOr(answer.properties)
	const taken = status >= 200 && status < 300 && MJ_ACCEPTED_CODES.includes(code)
	const upstreamId = usableTaskId(answer.result)
	if (taken && upstreamId) return { accepted: true, upstreamId, code, description, properties }
	if (taken && typeof answer.result === 'string' && answer.result.trim()) return answeredUnusableId(VALIDATION_ERROR)
	// `upload-discord-images` answers the uploaded files' addresses instead of a task id.
	const uploads = Array.isArray(answer.result) ? answer.result.filter((entry): entry is string => typeof entry === 'string' && entry !== '') : []
	if (taken && uploads.length > 0) return { accepted: true, upstreamId: '', uploads, code, description, properties }
	return { accepted: false, status: status >= 400 ? status : 400, code: Number.isFinite(code) ? code : VALIDATION_ERROR, description: description || `the upstream refused the task (code ${textOf(answer.code) || 'none'})`, properties }
}

function taskStatus(value: unknown): string {
	const status = textOf(value).trim().toUpperCase()
	return status === CANCELLED ? TASK_STATUS.failure : status
}

export function readTask(task: Record<string, unknown>): UpstreamTaskState {
	const status = taskStatus(task.status)
	return {
		// An id no submit was accepted under matches no task: the entry is left out.
		id: usableTaskId(task.id) ?? '',
		status,
		progress: textOf(task.progress),
		failReason: textOf(task.failReason) || (textOf(task.status).toUpperCase() === CANCELLED ? 'the upstream cancelled the task' : ''),
		submitTime: unixSeconds(task.submitTime),
		startTime: unixSeconds(task.startTime),
		finishTime: unixSeconds(task.finishTime),
		drawing: {
			imageUrl: textOf(task.imageUrl),
			prompt: textOf(task.prompt),
			promptEn: textOf(task.promptEn),
			description: textOf(task.description),
			state: textOf(task.state),
			buttons: jsonText(task.buttons),
			properties: jsonText(task.properties),
		},
	}
}

/** `list-by-condition` answers a bare array of task objects. */
export function readFetch(text: string): UpstreamTaskState[] {
	const answer = parseAnswer(text, 'task list')
	if (!Array.isArray(answer)) throw new SyntaxError('the upstream\'s task list is not an array')
	return answer.filter(isObject).map(readTask).filter((task) => task.id !== '')
}
