/** Why generation stopped, in each format. Gemini has more reasons; the rest are content filters. */

const GEMINI_TO_OPENAI: Record<string, string> = {
	STOP: 'stop',
	MAX_TOKENS: 'length',
	FINISH_REASON_UNSPECIFIED: 'stop',
	OTHER: 'stop',
	MALFORMED_FUNCTION_CALL: 'stop',
	UNEXPECTED_TOOL_CALL: 'stop',
}

export function openAIFinishReason(reason: string | undefined, calledTools: boolean): string | null {
	if (reason === undefined) return null
	if (calledTools && (reason === 'STOP' || reason === 'FINISH_REASON_UNSPECIFIED')) return 'tool_calls'
	// SAFETY, RECITATION, BLOCKLIST, PROHIBITED_CONTENT, SPII, IMAGE_SAFETY, LANGUAGE…
	return GEMINI_TO_OPENAI[reason] ?? 'content_filter'
}

const OPENAI_TO_GEMINI: Record<string, string> = {
	stop: 'STOP',
	tool_calls: 'STOP',
	function_call: 'STOP',
	length: 'MAX_TOKENS',
	content_filter: 'SAFETY',
}

export function geminiFinishReason(reason: string | null | undefined): string | undefined {
	if (!reason) return undefined
	return OPENAI_TO_GEMINI[reason] ?? 'OTHER'
}
