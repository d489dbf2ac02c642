/**
 * OpenAI chat request (or a Claude client's own) → the body of Bedrock's `invoke`: Claude's Messages body with
 * `anthropic_version: bedrock-2023-05-31`, without `model` and `stream` (the path names the model
 * and the endpoint decides streaming) and without `metadata`, which Bedrock's request schema lacks.
 */
import type { RequestExtras } from '../../formats/canonical'
import { claudeRequestBody } from '../anthropic/request'

const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31'

export function bedrockClaudeBody(body: Record<string, unknown>, extras?: RequestExtras): Record<string, unknown> {
	return bedrockBodyFromClaude(claudeRequestBody(body, extras), [])
}

/**
 * A Claude Messages body (a Claude client's own, passed through) → Bedrock's: the same fields and
 * blocks, without `model`, `stream` and `metadata`, with Bedrock's version and the client's betas
 * (Bedrock takes them in the body, `anthropic_beta`, rather than a header).
 */
export function bedrockBodyFromClaude(claude: Record<string, unknown>, betas: string[]): Record<string, unknown> {
	const { model: _model, stream: _stream, metadata: _metadata, anthropic_version: _version, ...rest } = claude
	return { anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...(betas.length > 0 ? { anthropic_beta: betas } : {}), ...rest }
}
