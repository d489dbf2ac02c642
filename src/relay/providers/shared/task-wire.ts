/** Reading task answers: what midjourney-proxy and the Suno APIs write for times, ids and text. */
import { isObject } from '../../formats/json'
import type { TaskSubmitOutcome } from '../types'

/** Times past this are milliseconds (2001-09-09 in ms; year 5138 in seconds). */
const MILLISECONDS_THRESHOLD = 1e12
const MILLISECONDS_PER_SECOND = 1000

/** Unix seconds from seconds or milliseconds, a number or digits in text; 0 for anything else. */
export function unixSeconds(value: unknown): number {
	const number = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value
	if (typeof number !== 'number' || !Number.isFinite(number) || number <= 0) return 0
	return Math.floor(number >= MILLISECONDS_THRESHOLD ? number / MILLISECONDS_PER_SECOND : number)
}

/** Text as it is, a number as its digits (task ids come as either), '' for anything else. */
export function textOf(value: unknown): string {
	if (typeof value === 'string') return value
	if (typeof value === 'number' && Number.isFinite(value)) return String(value)
	return ''
}

/** Longer than any deployment's ids (midjourney-proxy's are digits, Suno's UUIDs). */
const TASK_ID_LIMIT = 256
/** C0 control characters (NUL among them) and DEL. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/

/**
 * A task id as the upstream wrote it (text, or a number's digits, trimmed), or undefined when it is
 * none or not usable: a control character (NUL, which Postgres cannot store), a lone surrogate or
 * a length past any deployment's. Such an id is not cleaned: a cleaned id is not the upstream's, so
 * polling by it would find nothing and the task would never finish; the submit is refused instead.
 */
export function usableTaskId(value: unknown): string | undefined {
	const id = textOf(value).trim()
	return id && id.length <= TASK_ID_LIMIT && !CONTROL_CHARACTER.test(id) && id.isWellFormed() ? id : undefined
}

/** The refusal of a submit the upstream took under an id Ferry cannot use (`usableTaskId`): the hold goes back. */
export function answeredUnusableId(code: number | string): TaskSubmitOutcome {
	return { accepted: false, status: BAD_GATEWAY, code, description: 'the upstream answered a task id that is not usable (empty, too long, or with control characters)', properties: {} }
}

/** A JSON value kept as text for storage; '' when absent. */
export function jsonText(value: unknown): string {
	return value === undefined || value === null ? '' : JSON.stringify(value)
}

export function objectOr(value: unknown): Record<string, unknown> {
	return isObject(value) ? value : {}
}

const BAD_GATEWAY = 502

/** A submit's answer as a JSON object; undefined for anything else (not JSON, or not an object). */
export function submitAnswerObject(text: string): Record<string, unknown> | undefined {
	try {
		const answer: unknown = JSON.parse(text)
		return isObject(answer) ? answer : undefined
	} catch {
		return undefined
	}
}

/** The refusal of a submit answered without a task: its HTTP status when that is an error, else 502. */
export function answeredWithoutTask(status: number, code: number | string): TaskSubmitOutcome {
	return { accepted: false, status: status >= 400 ? status : BAD_GATEWAY, code, description: `the upstream answered ${status} without a task`, properties: {} }
}

/** The parsed JSON of an answer, or a SyntaxError naming what was expected. */
export function parseAnswer(text: string, what: string): unknown {
	try {
		return JSON.parse(text) as unknown
	} catch {
		throw new SyntaxError(`the upstream's ${what} is not JSON`)
	}
}

/** `Authorization` or `mj-api-secret` values: a channel key line, without a `Bearer ` the admin may have pasted. */
export const bareKey = (key: string) => key.trim().replace(/^Bearer\s+/i, '')
