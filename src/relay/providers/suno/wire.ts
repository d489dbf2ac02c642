/**
 * The Suno API's task calls (NOTES.md): submit answers `{code: "success", message, data: task id}`;
 * fetch answers `{code: "success", data: [{task_id, action, status, fail_reason, submit_time,
 * start_time, finish_time, progress, data}]}`.
 */
import type { TaskSubmitOutcome, UpstreamChannel, UpstreamRequest, UpstreamTaskState } from '../types'
import { answeredUnusableId, answeredWithoutTask, bareKey, jsonText, parseAnswer, submitAnswerObject, textOf, unixSeconds, usableTaskId } from '../shared/task-wire'
import { isObject } from '../../formats/json'

const SUCCESS_CODE = 'success'
const BAD_REQUEST = 400

const headers = (channel: UpstreamChannel) => ({ 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${bareKey(channel.key)}` })

export function submitRequest(channel: UpstreamChannel, path: string, body: Record<string, unknown>): UpstreamRequest {
	return { url: `${channel.baseUrl}${path}`, headers: headers(channel), body: JSON.stringify(body) }
}

export function fetchRequest(channel: UpstreamChannel, ids: readonly string[]): UpstreamRequest {
	return { url: `${channel.baseUrl}/suno/fetch`, headers: headers(channel), body: JSON.stringify({ ids }) }
}

export function readSubmit(status: number, text: string): TaskSubmitOutcome {
	const answer = submitAnswerObject(text)
	if (!answer) return answeredWithoutTask(status, 'upstream_error')
	const code = textOf(answer.code)
	const upstreamId = usableTaskId(answer.data)
	const description = textOf(answer.message) || textOf(answer.msg)
	const taken = status >= 200 && status < 300 && code === SUCCESS_CODE
	if (taken && upstreamId) return { accepted: true, upstreamId, code: 1, description, properties: {} }
	if (taken && textOf(answer.data).trim()) return answeredUnusableId('upstream_error')
	return { accepted: false, status: status >= 400 ? status : BAD_REQUEST, code: code || 'upstream_error', description: description || `the upstream refused the task (code ${code || 'none'})`, properties: {} }
}

/** Suno deployments write statuses in either case; the rest are TASK_STATUS already. */
const taskStatus = (value: unknown) => textOf(value).trim().toUpperCase()

export function readFetch(text: string): UpstreamTaskState[] {
	const answer = parseAnswer(text, 'task list')
	if (!isObject(answer) || !Array.isArray(answer.data)) throw new SyntaxError('the upstream\'s task list has no data array')
	if (textOf(answer.code) !== SUCCESS_CODE) throw new SyntaxError(`the upstream's task list answered ${textOf(answer.code) || 'no code'}`)
	return answer.data.filter(isObject).map((task): UpstreamTaskState => ({
		id: usableTaskId(task.task_id) ?? '',
		status: taskStatus(task.status),
		progress: textOf(task.progress),
		failReason: textOf(task.fail_reason),
		submitTime: unixSeconds(task.submit_time),
		startTime: unixSeconds(task.start_time),
		finishTime: unixSeconds(task.finish_time),
		data: jsonText(task.data),
	})).filter((task) => task.id !== '')
}
