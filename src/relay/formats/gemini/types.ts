/**
 * Gemini's wire format (generateContent, streamGenerateContent, embedContent), limited to the
 * fields the gateway maps: every field optional, so a new upstream field never breaks the relay.
 */

export interface GeminiPart {
	text?: string
	/** A thinking model's reasoning, marked as such. */
	thought?: boolean
	thoughtSignature?: string
	inlineData?: { mimeType?: string; data?: string }
	fileData?: { mimeType?: string; fileUri?: string }
	functionCall?: { id?: string; name?: string; args?: Record<string, unknown> }
	functionResponse?: { id?: string; name?: string; response?: Record<string, unknown> }
}

export interface GeminiContent {
	/** `user` or `model`; absent means user. */
	role?: string
	parts?: GeminiPart[]
}

export interface GeminiFunctionDeclaration {
	name?: string
	description?: string
	parameters?: Record<string, unknown>
	parametersJsonSchema?: Record<string, unknown>
}

/** Gemini 2.5 takes a token budget (0 off, -1 dynamic), Gemini 3 a level; never both. */
export interface GeminiThinkingConfig {
	thinkingBudget?: number
	thinkingLevel?: string
	/** Send the thoughts (summaries) back as parts marked `thought`. */
	includeThoughts?: boolean
}

export interface GeminiGenerationConfig {
	temperature?: number
	topP?: number
	topK?: number
	maxOutputTokens?: number
	stopSequences?: string[]
	candidateCount?: number
	presencePenalty?: number
	frequencyPenalty?: number
	seed?: number
	responseMimeType?: string
	responseSchema?: Record<string, unknown>
	responseJsonSchema?: Record<string, unknown>
	thinkingConfig?: GeminiThinkingConfig
}

export interface GeminiRequest {
	contents?: GeminiContent[]
	systemInstruction?: GeminiContent
	tools?: { functionDeclarations?: GeminiFunctionDeclaration[] }[]
	toolConfig?: { functionCallingConfig?: { mode?: string; allowedFunctionNames?: string[] } }
	generationConfig?: GeminiGenerationConfig
	safetySettings?: unknown[]
}

export interface GeminiUsageMetadata {
	/** Includes the cached tokens. */
	promptTokenCount?: number
	candidatesTokenCount?: number
	thoughtsTokenCount?: number
	cachedContentTokenCount?: number
	toolUsePromptTokenCount?: number
	totalTokenCount?: number
}

export interface GeminiCandidate {
	content?: GeminiContent
	finishReason?: string
	index?: number
}

export interface GeminiResponse {
	candidates?: GeminiCandidate[]
	promptFeedback?: { blockReason?: string }
	usageMetadata?: GeminiUsageMetadata
	modelVersion?: string
	responseId?: string
}

export interface GeminiEmbedContentRequest {
	model?: string
	content?: GeminiContent
	taskType?: string
	title?: string
	outputDimensionality?: number
}
