/**
 * A Realtime session's conversation upstream, as large as Ferry can tell, for the channel's
 * `max_input_tokens`. The measure is the upstream's own: each `response.done` reports the response's
 * input tokens, which is the conversation as it was then. Between two measures the count only goes
 * down, and only by what the upstream confirms it removed from items that measure included:
 *
 * - `conversation.item.deleted`: the item's tokens;
 * - `conversation.item.truncated`: its text (the transcript, which the upstream drops) and the audio
 *   past `audio_end_ms`, the share of its audio that lies after that point.
 *
 * A client's request to delete or truncate is not enough: an item that does not exist, or one deleted
 * twice, removes nothing. An item's tokens are what its response reported (`output_tokens`, split
 * over its outputs by their text and audio), a text Ferry's hold estimate of it (tokenizer.ts), and
 * audio from the client the share of the measure's input audio tokens its bytes make up. An item
 * added after the last measure removes nothing from it (it was not counted); one Ferry cannot size
 * (an image) removes nothing either, so the client deletes something else or opens a new session.
 * Whatever the estimate misses, the next `response.done` measures again.
 */
import { estimatePrompt } from '@/billing/tokenizer'
import { isObject } from '../formats/json'

type Json = Record<string, any>

interface ItemSize {
	/** Text tokens: a text, a transcript, a function call's arguments or output. */
	text: number
	/** Audio tokens; for input audio, set from each measure. */
	audio: number
	/** The audio's bytes as they passed (base64 decoded in length only). */
	audioBytes: number
	/** Made by a response: its tokens are the response's output, its audio in the output format. */
	output: boolean
	/** Part of the last measure, so its removal shrinks the count. */
	measured: boolean
}

const ITEM_EVENTS: ReadonlySet<string> = new Set(['conversation.item.created', 'conversation.item.added', 'conversation.item.done', 'response.output_item.done'])
const OUTPUT_AUDIO_EVENTS: ReadonlySet<string> = new Set(['response.output_audio.delta', 'response.audio.delta'])
/** PCM16 at 24 kHz, the API's default and its only PCM rate: bytes per millisecond. */
const PCM_BYTES_PER_MS = 48
/** G.711 (μ-law, A-law) at 8 kHz. */
const G711_BYTES_PER_MS = 8
const FORMAT_BYTES_PER_MS: Record<string, number> = { pcm16: PCM_BYTES_PER_MS, 'audio/pcm': PCM_BYTES_PER_MS, g711_ulaw: G711_BYTES_PER_MS, g711_alaw: G711_BYTES_PER_MS, 'audio/pcmu': G711_BYTES_PER_MS, 'audio/pcma': G711_BYTES_PER_MS }

const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0)
/** The bytes a base64 text decodes to, without decoding it. */
const base64Bytes = (value: unknown) => (typeof value === 'string' ? Math.floor((value.replace(/=+$/, '').length * 3) / 4) : 0)

/** The texts an item carries into the conversation. */
function itemTexts(item: Json): string[] {
	const texts: string[] = []
	for (const field of ['arguments', 'output', 'name']) if (typeof item[field] === 'string') texts.push(item[field])
	for (const part of Array.isArray(item.content) ? item.content : []) {
		if (!isObject(part)) continue
		if (typeof part.text === 'string') texts.push(part.text)
		if (typeof part.transcript === 'string') texts.push(part.transcript)
	}
	return texts
}

const textTokens = (texts: string[]) => (texts.length > 0 ? estimatePrompt({ endpoint: 'media', input: texts }) : 0)

function itemAudioBytes(item: Json): number {
	let bytes = 0
	for (const part of Array.isArray(item.content) ? item.content : []) if (isObject(part)) bytes += base64Bytes(part.audio)
	return bytes
}

/** The output format's bytes per millisecond, from a session event (GA's `audio.output.format`, beta's `output_audio_format`). */
function outputBytesPerMs(session: Json): number | undefined {
	const format = isObject(session.audio?.output?.format) ? session.audio.output.format : undefined
	const name = format ? format.type : session.output_audio_format
	if (typeof name !== 'string') return undefined
	const perMs = FORMAT_BYTES_PER_MS[name]
	return perMs === PCM_BYTES_PER_MS && format && count(format.rate) > 0 ? (format.rate * 2) / 1000 : perMs
}

export class RealtimeConversation {
	private readonly items = new Map<string, ItemSize>()
	/** The last measure, less what was removed from it since. */
	private tokens = 0
	/** Audio appended to the input buffer and not yet committed. */
	private bufferedBytes = 0
	private outputFormatBytesPerMs: number | undefined = PCM_BYTES_PER_MS

	/** The conversation's input tokens as Ferry can tell: 0 before the first measure. */
	get inputTokens(): number {
		return Math.max(0, Math.round(this.tokens))
	}

	/** A client's event, as it goes upstream. */
	clientEvent(event: Json) {
		if (event.type === 'input_audio_buffer.append') this.bufferedBytes += base64Bytes(event.audio)
		else if (event.type === 'input_audio_buffer.clear') this.bufferedBytes = 0
	}

	/** An upstream's event, before the client sees it. */
	upstreamEvent(event: Json) {
		const type = String(event.type)
		if (ITEM_EVENTS.has(type) && isObject(event.item)) return this.noteItem(event.item)
		if (OUTPUT_AUDIO_EVENTS.has(type) && typeof event.item_id === 'string') {
			const item = this.item(event.item_id)
			item.output = true
			item.audioBytes += base64Bytes(event.delta)
			return
		}
		switch (type) {
			case 'session.created':
			case 'session.updated':
				if (isObject(event.session)) this.outputFormatBytesPerMs = outputBytesPerMs(event.session) ?? this.outputFormatBytesPerMs
				return
			case 'input_audio_buffer.committed':
				if (typeof event.item_id === 'string') this.item(event.item_id).audioBytes += this.bufferedBytes
				this.bufferedBytes = 0
				return
			case 'input_audio_buffer.cleared':
				this.bufferedBytes = 0
				return
			case 'conversation.item.deleted':
				return this.deleted(event.item_id)
			case 'conversation.item.truncated':
				return this.truncated(event.item_id, count(event.audio_end_ms))
			case 'response.done':
				if (isObject(event.response)) this.measured(event.response)
		}
	}

	private item(id: string): ItemSize {
		let item = this.items.get(id)
		if (!item) this.items.set(id, item = { text: 0, audio: 0, audioBytes: 0, output: false, measured: false })
		return item
	}

	private noteItem(item: Json) {
		if (typeof item.id !== 'string') return
		const known = this.items.get(item.id)
		// A response's item is sized by what the response reported.
		if (known?.output) return
		const size = this.item(item.id)
		size.text = textTokens(itemTexts(item))
		size.audioBytes = Math.max(size.audioBytes, itemAudioBytes(item))
	}

	private deleted(id: unknown) {
		if (typeof id !== 'string') return
		const item = this.items.get(id)
		this.items.delete(id)
		if (item?.measured) this.tokens -= item.text + item.audio
	}

	private truncated(id: unknown, audioEndMs: number) {
		const item = typeof id === 'string' ? this.items.get(id) : undefined
		if (!item) return
		const durationMs = item.output && this.outputFormatBytesPerMs ? item.audioBytes / this.outputFormatBytesPerMs : 0
		// Audio of a length Ferry cannot tell is kept whole in the count.
		const kept = durationMs > 0 ? Math.min(1, audioEndMs / durationMs) : 1
		const removed = item.text + item.audio * (1 - kept)
		item.text = 0
		item.audio *= kept
		item.audioBytes *= kept
		if (item.measured) this.tokens -= removed
	}

	/** A response's measure: its input is the conversation before it; its outputs join it after. */
	private measured(response: Json) {
		const usage: Json | undefined = isObject(response.usage) ? response.usage : undefined
		const inputTokens = count(usage?.input_tokens)
		const outputs = (Array.isArray(response.output) ? response.output : []).filter((item: unknown): item is Json => isObject(item) && typeof item.id === 'string')
		const outputIds = new Set(outputs.map((item) => item.id as string))
		if (inputTokens > 0) {
			this.tokens = inputTokens
			for (const [id, item] of this.items) if (!outputIds.has(id)) item.measured = true
			this.sizeInputAudio(count(usage?.input_token_details?.audio_tokens))
		}
		if (usage) this.sizeOutputs(outputs, usage)
	}

	/** The measure's input audio less the responses' audio, shared over the client's audio by its bytes. */
	private sizeInputAudio(audioTokens: number) {
		const measured = [...this.items.values()].filter((item) => item.measured)
		const clientAudio = measured.filter((item) => !item.output && item.audioBytes > 0)
		const bytes = clientAudio.reduce((sum, item) => sum + item.audioBytes, 0)
		const responseAudio = measured.filter((item) => item.output).reduce((sum, item) => sum + item.audio, 0)
		const tokens = Math.max(0, audioTokens - responseAudio)
		for (const item of clientAudio) item.audio = (tokens * item.audioBytes) / bytes
	}

	/** A response's output tokens (text and audio, as its usage details them) shared over its items. */
	private sizeOutputs(outputs: Json[], usage: Json) {
		if (outputs.length === 0) return
		const details: Json = isObject(usage.output_token_details) ? usage.output_token_details : {}
		const audio = count(details.audio_tokens)
		const text = details.text_tokens != null ? count(details.text_tokens) : Math.max(0, count(usage.output_tokens) - audio)
		const sizes = outputs.map((output) => {
			const size = this.item(output.id)
			size.output = true
			size.measured = false
			return { size, textShare: Math.max(1, textTokens(itemTexts(output))) }
		})
		const textShares = sizes.reduce((sum, { textShare }) => sum + textShare, 0)
		const audioBytes = sizes.reduce((sum, { size }) => sum + size.audioBytes, 0)
		for (const { size, textShare } of sizes) {
			size.text = (text * textShare) / textShares
			size.audio = audioBytes > 0 ? (audio * size.audioBytes) / audioBytes : audio / sizes.length
		}
	}
}
