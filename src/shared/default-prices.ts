/**
 * Default price table (`ModelRatio`, `CompletionRatio`, `ModelPrice`). A model ratio of 1 costs
 * $2 per million input tokens (docs/specification/pricing.md#the-price-of-a-call); a completion ratio multiplies that for output tokens;
 * a model price is USD per call and wins over ratios. Figures follow the providers' list prices.
 */
export const DEFAULT_MODEL_RATIO: Record<string, number> = {
	'gpt-3.5-turbo': 0.25,
	'gpt-3.5-turbo-instruct': 0.75,
	'gpt-4o': 1.25,
	'gpt-4o-mini': 0.075,
	'gpt-4.1': 1,
	'gpt-4.1-mini': 0.2,
	'gpt-4.1-nano': 0.05,
	'o3': 1,
	'o4-mini': 0.55,
	'text-embedding-3-small': 0.01,
	'text-embedding-3-large': 0.065,
	'claude-opus-4-20250514': 7.5,
	'claude-sonnet-4-20250514': 1.5,
	'claude-3-5-haiku-20241022': 0.4,
	'gemini-2.5-pro': 0.625,
	'gemini-2.5-flash': 0.15,
	'gemini-2.0-flash': 0.05,
	'deepseek-chat': 0.135,
	'deepseek-reasoner': 0.275,
}

export const DEFAULT_COMPLETION_RATIO: Record<string, number> = {
	'gpt-3.5-turbo': 3,
	'gpt-3.5-turbo-instruct': 1.33,
	'gpt-4o': 4,
	'gpt-4o-mini': 4,
	'gpt-4.1': 4,
	'gpt-4.1-mini': 4,
	'gpt-4.1-nano': 4,
	'o3': 4,
	'o4-mini': 4,
	'claude-opus-4-20250514': 5,
	'claude-sonnet-4-20250514': 5,
	'claude-3-5-haiku-20241022': 5,
	'gemini-2.5-pro': 8,
	'gemini-2.5-flash': 8.33,
	'gemini-2.0-flash': 4,
	'deepseek-chat': 4,
	'deepseek-reasoner': 4,
}

export const DEFAULT_MODEL_PRICE: Record<string, number> = {
	'dall-e-3': 0.04,
	// Drawing actions: INPAINT and CUSTOM_ZOOM are free, their MODAL step is charged (new-api's defaults).
	'mj_imagine': 0.1,
	'mj_variation': 0.1,
	'mj_reroll': 0.1,
	'mj_blend': 0.1,
	'mj_modal': 0.1,
	'mj_zoom': 0.1,
	'mj_shorten': 0.1,
	'mj_high_variation': 0.1,
	'mj_low_variation': 0.1,
	'mj_pan': 0.1,
	'mj_inpaint': 0,
	'mj_custom_zoom': 0,
	'mj_describe': 0.05,
	'mj_upscale': 0.05,
	'mj_upload': 0.05,
	'swap_face': 0.05,
	'suno_music': 0.1,
	'suno_lyrics': 0.01,
	// Video models: USD per second of the requested video (the providers' list prices at 720p; 1080p-class sizes cost 5/3 of it).
	'sora-2': 0.1,
	'sora-2-pro': 0.3,
	'veo-3.0-generate-001': 0.4,
	'veo-3.0-fast-generate-001': 0.15,
	'veo-3.1-generate-preview': 0.4,
	'veo-3.1-fast-generate-preview': 0.15,
}
