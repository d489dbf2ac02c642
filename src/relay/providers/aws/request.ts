/**
 * OpenAI chat request → the body of Bedrock's `invoke`: Claude's Messages body with
 * `anthropic_version: bedrock-2023-05-31`, without `model` and `stream` (the path names the model
 * and the endpoint decides streaming) and without `metadata`, which Bedrock's request schema lacks.
 */
import { claudeRequestBody } from '../anthropic/request'

const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31'

export function bedrockClaudeBody(body: Record<string, unknown>): Record<string, unknown> {
	const { model: _model, stream: _stream, metadata: _metadata, ...claude } = claudeRequestBody(body)
	return { anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...claude }
}
