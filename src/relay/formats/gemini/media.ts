/** Images between OpenAI's `image_url` parts and Gemini's `inlineData` / `fileData` parts. */
import type { GeminiPart } from './types'

const DATA_URL = /^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/s

const MIME_BY_EXTENSION: Record<string, string> = {
	png: 'image/png',
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	webp: 'image/webp',
	gif: 'image/gif',
	heic: 'image/heic',
	heif: 'image/heif',
	pdf: 'application/pdf',
}

function mimeFromUrl(url: string): string | undefined {
	const extension = /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(url)?.[1]?.toLowerCase()
	return extension ? MIME_BY_EXTENSION[extension] : undefined
}

/** A data URL becomes inline bytes; any other URL is referenced by URI. */
export function geminiPartFromImageUrl(url: string): GeminiPart {
	const data = DATA_URL.exec(url)
	if (data) return { inlineData: { mimeType: data[1] ?? 'application/octet-stream', data: data[2] } }
	const mimeType = mimeFromUrl(url)
	return { fileData: { ...(mimeType ? { mimeType } : {}), fileUri: url } }
}

/** The URL an OpenAI client gets for a Gemini media part, or undefined for other parts. */
export function imageUrlFromGeminiPart(part: GeminiPart): string | undefined {
	if (part.inlineData?.data !== undefined) return `data:${part.inlineData.mimeType ?? 'application/octet-stream'};base64,${part.inlineData.data}`
	return part.fileData?.fileUri
}
