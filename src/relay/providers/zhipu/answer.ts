/** Zhipu v3 answers → OpenAI's shape; `success: false` in a 200 answer is an upstream error. */
import { RelayError } from '../../errors'
import { openAIUsage, type TokenCounts } from '../shared/openai-usage'

const MILLISECONDS_PER_SECOND = 1000

interface ZhipuAnswer {
	code?: number
	msg?: string
	success?: boolean
	data?: { request_id?: string; task_id?: string; choices?: { role?: string; content?: string }[]; usage?: TokenCounts }
}

export function zhipuFailure(code: unknown, message: unknown) {
	return new RelayError(502, `Zhipu error ${String(code ?? 'unknown')}: ${String(message ?? '')}`.trim(), 'upstream_error', 'upstream_error')
}

/** v3 answers its content as a JSON string literal (`"\"Hello\""`); unwrap it. */
function unquoted(content: string): string {
	if (content.length < 2 || !content.startsWith('"') || !content.endsWith('"')) return content
	try {
		const parsed: unknown = JSON.parse(content)
		return typeof parsed === 'string' ? parsed : content
	} catch {
		return content.slice(1, -1)
	}
}

export function toOpenAIAnswer(text: string, model: string): Record<string, unknown> {
	const answer = JSON.parse(text) as ZhipuAnswer
	if (answer.success === false || !answer.data) throw zhipuFailure(answer.code, answer.msg)
	return {
		id: answer.data.task_id ?? answer.data.request_id ?? '',
		object: 'chat.completion',
		created: Math.floor(Date.now() / MILLISECONDS_PER_SECOND),
		model,
		choices: (answer.data.choices ?? []).map((choice, index) => ({
			index, message: { role: 'assistant', content: unquoted(choice.content ?? '') }, finish_reason: 'stop',
		})),
		usage: openAIUsage(answer.data.usage),
	}
}

const UPSTREAM_FAILED = 502

/** For the relay: `success: false` in a 2xx answer is an upstream error (see Converter.errorOf). */
export function zhipuErrorOf(text: string): { status: number; message: string } | undefined {
	let answer: ZhipuAnswer
	try {
		answer = JSON.parse(text) as ZhipuAnswer
	} catch {
		return undefined
	}
	if (answer.success !== false && answer.data) return undefined
	return { status: UPSTREAM_FAILED, message: zhipuFailure(answer.code, answer.msg).message }
}
