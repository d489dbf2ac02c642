/**
 * What clients send to OpenAI's image, audio and moderation endpoints (OpenAI API reference): only
 * the fields the gateway reads are checked — what it bills and holds by — and everything else goes
 * upstream untouched. Upload fields arrive as text (`n: "2"`), JSON fields as JSON.
 */
import { relayErrors } from '../../errors'
import { MEDIA_ENDPOINTS, type MediaEndpoint, type RelayEndpoint } from '../../providers/types'
import { isObject } from '../json'
import { hasFilePart, type Upload } from './multipart'

/** OpenAI's bound on `n` for image endpoints. */
const MAX_IMAGES = 10

const MEDIA = new Set<RelayEndpoint>(MEDIA_ENDPOINTS)

export const isMediaEndpoint = (endpoint: RelayEndpoint): endpoint is MediaEndpoint => MEDIA.has(endpoint)

export const isImageEndpoint = (endpoint: RelayEndpoint) => endpoint === 'image-generations' || endpoint === 'image-edits' || endpoint === 'image-variations'

/**
 * The model OpenAI's API uses when a request names none (OpenAI API reference): the SDK lets a
 * moderation or an image call leave it out. Speech, transcriptions and translations require one.
 */
const DEFAULT_MODELS: Partial<Record<MediaEndpoint, string>> = {
	moderations: 'omni-moderation-latest',
	'image-generations': 'dall-e-2',
	'image-edits': 'dall-e-2',
	'image-variations': 'dall-e-2',
}

/** `body` with the endpoint's default model when it names none (the same object when it does, or has no default). */
export function withDefaultModel(endpoint: MediaEndpoint, body: unknown): unknown {
	const model = DEFAULT_MODELS[endpoint]
	if (!model || !isObject(body) || (body.model !== undefined && body.model !== null)) return body
	return { ...body, model }
}

/** Endpoints that generate no tokens: their hold covers the prompt alone. */
export const generatesNoTokens = (endpoint: MediaEndpoint) => endpoint === 'speech' || endpoint === 'moderations'

function fail(message: string): never {
	throw relayErrors.badRequest(message)
}

function requiredText(body: Record<string, unknown>, field: string) {
	const value = body[field]
	if (typeof value !== 'string' || value === '') fail(`${field}: ${field} is required`)
}

/** `n` as a number: a JSON number, or an upload's text field. */
export function imageCount(body: Record<string, unknown>): number {
	const value = typeof body.n === 'string' && /^\d+$/.test(body.n) ? Number(body.n) : body.n
	return value === undefined || value === null ? 1 : value as number
}

/** A file part named one of `names` (multipart), or, for the JSON form, a field of one of `jsonFields`. */
function requiredFile(body: Record<string, unknown>, upload: Upload | undefined, names: readonly string[], jsonFields: readonly string[] = []) {
	const hasFile = hasFilePart(upload, names)
	if (hasFile === false || (hasFile === undefined && !jsonFields.some((field) => body[field] !== undefined && body[field] !== null))) {
		fail(`${names[0]}: ${names[0]} is required`)
	}
}

/** Moderation input: a text, a list of texts, or a list of `{type: "text", text}` / `{type: "image_url", image_url}` parts. */
function checkModerationInput(input: unknown) {
	if (typeof input === 'string') return
	if (!Array.isArray(input) || input.length === 0) fail('input: expected a text or a non-empty list of texts or parts')
	input.forEach((item, index) => {
		if (typeof item !== 'string' && !(isObject(item) && typeof item.type === 'string')) fail(`input.${index}: expected a text or a {type} part`)
	})
}

/**
 * Checks a media request's own fields (the model is checked with every endpoint's), with its
 * upload when it came as one; throws a 400 naming the field.
 */
export function checkMediaRequest(endpoint: MediaEndpoint, body: Record<string, unknown>, upload: Upload | undefined) {
	// Streamed images and transcriptions are SSE events this gateway does not relay yet: refused rather than garbled.
	if (body.stream === true || body.stream === 'true') fail(`stream: streaming is not supported for ${endpoint} by this gateway`)
	if (isImageEndpoint(endpoint)) {
		const count = imageCount(body)
		if (!(Number.isInteger(count) && count >= 1 && count <= MAX_IMAGES)) fail(`n: expected a whole number of images from 1 to ${MAX_IMAGES}`)
		for (const field of ['size', 'quality']) if (body[field] !== undefined && body[field] !== null && typeof body[field] !== 'string') fail(`${field}: expected a text`)
	}
	switch (endpoint) {
		case 'image-generations':
			requiredText(body, 'prompt')
			break
		case 'image-edits':
			requiredText(body, 'prompt')
			requiredFile(body, upload, ['image', 'image[]'], ['images', 'image'])
			break
		case 'image-variations':
			requiredFile(body, upload, ['image'])
			break
		case 'speech':
			requiredText(body, 'input')
			break
		case 'transcriptions':
		case 'translations':
			requiredFile(body, upload, ['file'])
			if (body.prompt !== undefined && typeof body.prompt !== 'string') fail('prompt: expected a text')
			break
		case 'moderations':
			checkModerationInput(body.input)
			break
	}
}

/** The texts of a media request that count as its prompt (for the hold, local counts and the sensitive-word check). */
export function mediaPromptTexts(endpoint: MediaEndpoint, body: Record<string, unknown>): string[] {
	const value = endpoint === 'speech' || endpoint === 'moderations' ? body.input : body.prompt
	if (typeof value === 'string') return [value]
	if (!Array.isArray(value)) return []
	return value.flatMap((item) => typeof item === 'string' ? [item] : isObject(item) && typeof item.text === 'string' ? [item.text] : [])
}

/** The dall-e sizes new-api prices apart from 1024×1024. */
const DALL_E_SIZE_RATIOS: Record<string, number> = { '256x256': 0.4, '512x512': 0.45, '1024x1024': 1, '1024x1792': 2, '1792x1024': 2 }
const TALL_OR_WIDE = new Set(['1024x1792', '1792x1024'])
const DALL_E_3_HD_RATIO = 2
const DALL_E_3_HD_TALL_OR_WIDE_RATIO = 1.5

/**
 * What a fixed-price image call costs in calls: the number of images times, for dall-e models, the
 * size factor and (dall-e-3 at `quality: hd`) the quality factor — the multipliers new-api applies.
 */
export function imageCallRatio(model: string, body: Record<string, unknown>): number {
	let ratio = imageCount(body)
	if (!model.startsWith('dall-e')) return ratio
	const size = typeof body.size === 'string' ? body.size : ''
	ratio *= DALL_E_SIZE_RATIOS[size] ?? 1
	if (model === 'dall-e-3' && body.quality === 'hd') ratio *= TALL_OR_WIDE.has(size) ? DALL_E_3_HD_TALL_OR_WIDE_RATIO : DALL_E_3_HD_RATIO
	return ratio
}
