/**
 * Claude-format calls on channels that speak Claude's Messages API (design §5, same-format traffic):
 * the upstream gets the client's own body — every field, block and beta the client sent — with only
 * the model name mapped, and the client gets the upstream's answer as it came. The pipeline still
 * holds, routes and bills from the converted OpenAI form; this file gives it the client's request
 * and reads usage and text out of Claude's answers.
 */
import type { AnswerReader, SameFormatInput } from '../../pipeline/openai-call'
import { tapClaudeStream } from './stream-tap'
import { blockText, usageFromClaude } from './usage'

const API_VERSION = /^\d{4}-\d{2}-\d{2}$/
/** Beta names are short tokens; Claude Code sends about ten. A longer header is not a beta list. */
const BETA_LIST = /^[\w.-]+(?:\s*,\s*[\w.-]+)*$/
const BETA_LIST_MAX_LENGTH = 4096

/** The headers the client wrote its body for: its API version and betas (context management, 1M context…). */
function wireHeaders(headers: Headers): Record<string, string> {
	const wire: Record<string, string> = {}
	const version = headers.get('anthropic-version')?.trim()
	if (version && API_VERSION.test(version)) wire['anthropic-version'] = version
	const betas = headers.get('anthropic-beta')?.trim()
	if (betas && betas.length <= BETA_LIST_MAX_LENGTH && BETA_LIST.test(betas)) wire['anthropic-beta'] = betas
	return wire
}

const claudeAnswers: AnswerReader = {
	usageOf: (answer) => usageFromClaude(answer.usage),
	textOf: (answer) => (Array.isArray(answer.content) ? answer.content.map(blockText).join('') : ''),
	tapStream: tapClaudeStream,
}

/** `text` is the body as the client sent it, `body` the same parsed. */
export function claudeSameFormat(request: Request, text: string, body: Record<string, unknown>): SameFormatInput {
	return {
		call: {
			format: 'claude',
			bodyFor: (model) => (model === body.model ? text : JSON.stringify({ ...body, model })),
			headers: wireHeaders(request.headers),
			search: new URL(request.url).searchParams.get('beta') === 'true' ? '?beta=true' : '',
		},
		answers: claudeAnswers,
	}
}
