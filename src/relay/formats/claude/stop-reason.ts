/** Claude's `stop_reason` ⇄ OpenAI's `finish_reason`. */

const TO_OPENAI: Record<string, string> = {
	end_turn: 'stop',
	stop_sequence: 'stop',
	pause_turn: 'stop',
	max_tokens: 'length',
	model_context_window_exceeded: 'length',
	tool_use: 'tool_calls',
	refusal: 'content_filter',
}

const TO_CLAUDE: Record<string, string> = {
	stop: 'end_turn',
	length: 'max_tokens',
	tool_calls: 'tool_use',
	function_call: 'tool_use',
	content_filter: 'refusal',
}

export function finishReasonFromClaude(stopReason: unknown): string | null {
	if (typeof stopReason !== 'string') return null
	return TO_OPENAI[stopReason] ?? 'stop'
}

export function stopReasonFromOpenAI(finishReason: unknown): string | null {
	if (typeof finishReason !== 'string') return null
	return TO_CLAUDE[finishReason] ?? 'end_turn'
}
