/**
 * Spark's answer frames: `header.code` (0 = success), `header.status` (2 = the last frame),
 * `payload.choices.text[]` pieces, and `payload.usage.text` in the last frame.
 */

export interface SparkFunctionCall {
	name?: string
	/** A JSON text; an object is accepted too. */
	arguments?: unknown
}

interface SparkUsage {
	/** The last question alone; part of `prompt_tokens`, which also counts the history. */
	question_tokens?: number
	prompt_tokens?: number
	completion_tokens?: number
	total_tokens?: number
}

export interface SparkFrame {
	header?: { code?: number; message?: string; sid?: string; status?: number }
	payload?: {
		choices?: { status?: number; seq?: number; text?: { content?: string; role?: string; index?: number; function_call?: SparkFunctionCall }[] }
		usage?: { text?: SparkUsage }
	}
}

const LAST_FRAME_STATUS = 2

export function parseFrame(text: string): SparkFrame {
	const frame = JSON.parse(text) as unknown
	if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) throw new SyntaxError('a Spark frame is not a JSON object')
	return frame as SparkFrame
}

export const isFailure = (frame: SparkFrame) => (frame.header?.code ?? 0) !== 0
export const isLast = (frame: SparkFrame) => frame.header?.status === LAST_FRAME_STATUS || frame.payload?.choices?.status === LAST_FRAME_STATUS

/**
 * Spark's error codes as the HTTP statuses the relay acts on: credentials and authorisation
 * (401: the channel is rejected), limits (429: another channel is tried), the request or its
 * content (400: never retried); anything else is the upstream's own failure (502).
 */
const CODE_STATUS: Record<number, number> = {
	10015: 401, 10016: 401, 11200: 401,
	10006: 429, 10007: 429, 10008: 429, 10110: 429, 11201: 429, 11202: 429, 11203: 429,
	10003: 400, 10004: 400, 10005: 400, 10013: 400, 10014: 400, 10019: 400, 10163: 400, 10907: 400,
}
const UPSTREAM_FAILURE_STATUS = 502

export function failureStatus(frame: SparkFrame): number {
	return CODE_STATUS[frame.header?.code ?? 0] ?? UPSTREAM_FAILURE_STATUS
}

export function failureMessage(frame: SparkFrame): string {
	return `Spark error ${frame.header?.code}: ${frame.header?.message ?? ''}`.trim()
}

/** An error frame that arrives once a stream has started. */
export class SparkStreamError extends Error {}
