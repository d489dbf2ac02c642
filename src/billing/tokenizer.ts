/**
 * Counting tokens locally (docs/architecture.md#stages). The hold needs only an estimate, from the text's length
 * (a token is about 4 letters of English or 1–2 CJK characters; a third of the length errs
 * generous for English). The bill, when an upstream reports no usage, and `count_tokens` count
 * with a real tokenizer (o200k).
 *
 * The real count runs on a worker thread (src/workers/tokenizer.ts), in slices of whole
 * pre-tokenised pieces (`text-slices.ts`), so it is linear in the text and never holds other
 * requests. Measured in CPU time on the shared 2-core test machine: loading o200k takes about
 * 0.5 s, all of it a stall when it ran on the main thread; `"A"` × 40 000, a single piece, took
 * 1.1 s in one call (× 200 000: a minute) and takes about 10 ms in slices; 2.6 MB of mixed prose
 * and code counts identically in about 1.4 × the time of one call. Should the worker fail, the
 * main thread counts the same way itself, letting other requests run every `YIELD_AFTER_MS`.
 */
import type { Logger } from '@/lib/logger'
import { countInSlices, loadSliceCounter, type SliceCounter } from './slice-count'

/**
 * The tokenizer worker's messages (src/workers/tokenizer.ts): texts in, or a client's whole request
 * as bytes with the name of its format (the worker reads its prompt: see `countRequestOnWorker`);
 * their count, a refusal of the request (`refusal`: what the relay answers the client), or an error out.
 */
export type TokenizerRequest = { id: number; texts: string[] } | { id: number; request: { format: string; bytes: Uint8Array } }
export type TokenizerRefusal = { status: number; message: string; type: string; code: string | null }
/** A request's count carries the model the request names (`model`, when it is text), for routing the count upstream. */
export type TokenizerReply = { id: number; count: number; media?: MediaTokens; model?: string } | { id: number; refusal: TokenizerRefusal } | { id: number; error: string }
export type RequestCount = { count: number; media?: MediaTokens; model?: string } | { refusal: TokenizerRefusal }

/** What a prompt's media parts are, for a count's breakdown by modality (Gemini's `countTokens` reports one). */
export const MEDIA_KINDS = ['image', 'audio', 'video', 'document'] as const
export type MediaKind = (typeof MEDIA_KINDS)[number]
/** The tokens of a prompt's media parts by kind (part of the prompt's whole count); a kind without parts is absent. */
export type MediaTokens = Partial<Record<MediaKind, number>>
/** A prompt's whole count, and the part of it its media parts make. */
export interface PromptCount {
	tokens: number
	media: MediaTokens
}

const CHARACTERS_PER_TOKEN_ESTIMATE = 3
/** Per-message framing tokens in OpenAI's chat format. */
const MESSAGE_OVERHEAD = 3
const REPLY_PRIMING = 3
/** A flat count per image part; OpenAI's tile formula needs the image itself. */
const IMAGE_PART_TOKENS = 520
/** The longest the main thread counts before letting other requests have it (a slice takes at most about 3 ms). */
const YIELD_AFTER_MS = 2

type ChatMessage = { role?: unknown; name?: unknown; content?: unknown }

const estimate = (text: string) => Math.ceil(text.length / CHARACTERS_PER_TOKEN_ESTIMATE)

/**
 * Where the worker is. Running from source, it is found from here; the compiled binary has no
 * such path, so main.ts names it (relative to itself, as for the other workers).
 */
export const TOKENIZER_WORKER_FROM_SOURCE = new URL('../workers/tokenizer.ts', import.meta.url)
let workerUrl = TOKENIZER_WORKER_FROM_SOURCE
let workerLogger: Logger | undefined

export function configureTokenizerWorker(url: URL, logger: Logger) {
	workerUrl = url
	workerLogger = logger
}

/** A Bun worker, which can be (un)referenced; the DOM typings do not know it. */
type BunWorker = Worker & { ref?: () => void; unref?: () => void }

let worker: BunWorker | undefined
let workerFailed = false
let nextRequestId = 1
const waiting = new Map<number, { resolve: (outcome: RequestCount) => void; reject: (error: Error) => void }>()

function workerFailure(message: string) {
	workerFailed = true
	worker?.terminate()
	worker = undefined
	workerLogger?.error('the tokenizer worker failed; counting on the main thread', { error: message })
	for (const { reject } of waiting.values()) reject(new Error(message))
	waiting.clear()
}

function tokenizerWorker(): BunWorker | undefined {
	if (worker || workerFailed) return worker
	try {
		worker = new Worker(workerUrl)
	} catch (error) {
		workerFailure(String(error))
		return undefined
	}
	worker.onmessage = (event: MessageEvent<TokenizerReply>) => {
		const reply = event.data
		const waiter = waiting.get(reply.id)
		waiting.delete(reply.id)
		// The worker keeps the process alive only while a count is waiting for it.
		if (waiting.size === 0) worker?.unref?.()
		if ('error' in reply) waiter?.reject(new Error(reply.error))
		else waiter?.resolve(reply)
	}
	worker.onerror = (event) => workerFailure(String(event.message))
	return worker
}

function askWorker(counter: BunWorker, message: TokenizerRequest): Promise<RequestCount> {
	return new Promise<RequestCount>((resolve, reject) => {
		waiting.set(message.id, { resolve, reject })
		counter.ref?.()
		counter.postMessage(message)
	})
}

async function countOnWorker(counter: BunWorker, texts: string[]): Promise<number> {
	const outcome = await askWorker(counter, { id: nextRequestId++, texts })
	if ('refusal' in outcome) throw new Error(outcome.refusal.message)
	return outcome.count
}

/**
 * The prompt of a client's request counted wholly on the worker: its bytes are copied over (a
 * memory copy) and decoded, parsed and counted there, so a request of many megabytes costs the main
 * thread next to nothing (the count endpoints, which are free to call). `format` names how the worker reads the
 * prompt out of the request (src/relay/formats/counted-prompts.ts). Undefined when the worker is
 * not available: the caller then does the same work itself.
 */
export async function countRequestOnWorker(format: string, bytes: Uint8Array): Promise<RequestCount | undefined> {
	const counter = tokenizerWorker()
	if (!counter) return undefined
	try {
		return await askWorker(counter, { id: nextRequestId++, request: { format, bytes } })
	} catch {
		return undefined
	}
}

let mainThreadCounter: Promise<SliceCounter> | undefined

async function countOnMainThread(texts: string[]): Promise<number> {
	mainThreadCounter ??= loadSliceCounter()
	const count = await mainThreadCounter
	let since = performance.now()
	return countInSlices(texts, count, () => {
		if (performance.now() - since < YIELD_AFTER_MS) return undefined
		return new Promise<void>((resolve) => setImmediate(() => {
			since = performance.now()
			resolve()
		}))
	})
}

async function countTexts(texts: string[]): Promise<number> {
	if (texts.length === 0) return 0
	const counter = tokenizerWorker()
	if (counter) {
		try {
			return await countOnWorker(counter, texts)
		} catch {
			// The worker failed, or the count failed on it: count here (a count that failed there fails here too, and says why).
		}
	}
	return countOnMainThread(texts)
}

type MediaCounter = (kind: MediaKind, tokens: number) => void

/** The texts of a prompt, each counted on its own, plus the tokens that do not depend on them (media parts' told to `media` too). */
function promptTexts(request: PromptRequest, text: (value: string) => void, media: MediaCounter = () => {}): number {
	if (request.endpoint !== 'chat') return inputTexts(request.input, text)
	let fixed = REPLY_PRIMING
	for (const message of request.messages) {
		fixed += MESSAGE_OVERHEAD + contentTexts(message.content, text, media)
		if (typeof message.name === 'string') text(message.name)
	}
	if (request.tools) text(JSON.stringify(request.tools))
	return fixed
}

const DATA_URL_TYPE = /^data:([^;,]*)/i
const EXTENSION = /\.([a-z0-9]+)(?:[?#].*)?$/i
const KIND_BY_EXTENSION: Record<string, MediaKind> = { pdf: 'document', mp3: 'audio', wav: 'audio', flac: 'audio', ogg: 'audio', m4a: 'audio', mp4: 'video', mov: 'video', webm: 'video' }

/**
 * What an `image_url` part holds, by its data URL's MIME type or its web URL's extension: a Gemini
 * client's audio, video and PDF parts reach OpenAI's form as such parts too. Images otherwise.
 */
function mediaKindOf(url: unknown): MediaKind {
	if (typeof url !== 'string') return 'image'
	const type = DATA_URL_TYPE.exec(url)?.[1]?.toLowerCase()
	if (type !== undefined) {
		if (type.startsWith('audio/')) return 'audio'
		if (type.startsWith('video/')) return 'video'
		if (type === 'application/pdf' || type.startsWith('text/')) return 'document'
		return 'image'
	}
	const extension = EXTENSION.exec(url)?.[1]?.toLowerCase()
	return (extension && KIND_BY_EXTENSION[extension]) || 'image'
}

function contentTexts(content: unknown, text: (value: string) => void, media: MediaCounter): number {
	if (typeof content === 'string') text(content)
	if (!Array.isArray(content)) return 0
	let fixed = 0
	for (const part of content as { type?: unknown; text?: unknown; image_url?: unknown }[]) {
		if (typeof part?.text === 'string') text(part.text)
		else if (part?.type === 'image_url' || part?.type === 'input_image') {
			fixed += IMAGE_PART_TOKENS
			const image = part.image_url
			media(mediaKindOf(typeof image === 'object' && image !== null ? (image as { url?: unknown }).url : image), IMAGE_PART_TOKENS)
		}
	}
	return fixed
}

/** Prompts and embedding inputs: a string, strings, or already-tokenised integer arrays. */
function inputTexts(value: unknown, text: (value: string) => void): number {
	if (typeof value === 'string') text(value)
	if (!Array.isArray(value)) return 0
	let fixed = 0
	for (const item of value) {
		if (typeof item === 'string') text(item)
		else if (typeof item === 'number') fixed += 1
		else if (Array.isArray(item)) fixed += item.length
	}
	return fixed
}

export type PromptRequest =
	| { endpoint: 'chat'; messages: readonly ChatMessage[]; tools?: unknown }
	/** `media`: the texts of an image, audio or moderation request. */
	| { endpoint: 'completions' | 'embeddings' | 'rerank' | 'media'; input: unknown }

/** A quick upper-side estimate of the prompt, for the hold. */
export function estimatePrompt(request: PromptRequest): number {
	let estimated = 0
	const fixed = promptTexts(request, (text) => {
		estimated += estimate(text)
	})
	return fixed + estimated
}

/** The texts of a prompt to count, the tokens that do not depend on them, and those of them its media parts make. */
export function textsOfPrompt(request: PromptRequest): { texts: string[]; fixed: number; media: MediaTokens } {
	const texts: string[] = []
	const media: MediaTokens = {}
	const fixed = promptTexts(request, (text) => texts.push(text), (kind, tokens) => {
		media[kind] = (media[kind] ?? 0) + tokens
	})
	return { texts, fixed, media }
}

/** The prompt counted with the tokenizer, and the part of it its media parts make. */
export async function countPromptWithMedia(request: PromptRequest): Promise<PromptCount> {
	const { texts, fixed, media } = textsOfPrompt(request)
	return { tokens: fixed + await countTexts(texts), media }
}

/** The prompt counted with the tokenizer, for a bill without upstream usage. */
export async function countPrompt(request: PromptRequest): Promise<number> {
	return (await countPromptWithMedia(request)).tokens
}

/** Generated text counted with the tokenizer, for a bill without upstream usage. */
export async function countText(text: string): Promise<number> {
	return countTexts([text])
}
