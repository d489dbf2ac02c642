/**
 * A fake OpenAI upstream for the image, audio and moderation endpoints, on loopback, speaking their
 * documented wire format (OpenAI API reference): images answer `{created, data: [{b64_json}], usage?}`,
 * speech answers audio bytes, transcriptions and translations answer each `response_format`
 * (`json`, `text`, `srt`, `verbose_json`, `vtt`), moderations answer `{id, model, results}`, and chat
 * completions answer as an audio model does (gpt-4o-audio: `message.audio`, audio tokens in the
 * usage details). The path
 * is matched by its end, so OpenAI's `/v1/…` and Azure's `/openai/deployments/<name>/…?api-version`
 * both work. Every request is recorded with its raw bytes and, for uploads, its parts.
 */

export interface MediaRecordedRequest {
	path: string
	search: string
	headers: Record<string, string>
	raw: Uint8Array
	/** Parsed JSON body, when it was JSON. */
	json?: any
	/** Text fields of a multipart body. */
	fields?: Record<string, string>
	/** File parts of a multipart body: name → {filename, type, bytes}. */
	files?: Record<string, { filename: string; type: string; bytes: Uint8Array }>
}

/** What a transcription reports: tokens (gpt-4o-transcribe) or seconds (whisper-1). */
export type TranscriptionUsage =
	| { type: 'tokens'; input_tokens: number; output_tokens: number; input_token_details?: { text_tokens: number; audio_tokens: number } }
	| { type: 'duration'; seconds: number }

export interface FakeMediaOptions {
	/** Reported by image answers as `usage` (gpt-image models); none when absent. */
	imageUsage?: { input_tokens: number; output_tokens: number }
	transcriptionUsage?: TranscriptionUsage
	/** The transcript text; default "Hello from the fake transcriber." */
	transcript?: string
	/** Bytes of audio speech answers with; default 48 KiB. */
	speechBytes?: number
	/** Send speech in chunks this far apart (ms), to let a test cut it; default 0. */
	speechChunkDelayMs?: number
	/** What an audio chat answer reports; default 100 prompt (40 audio), 200 completion (150 audio). */
	chatUsage?: { prompt: number; promptAudio: number; completion: number; completionAudio: number }
	/** Answer every request with this status and an OpenAI error. */
	failWith?: number
}

export interface FakeMedia {
	url: string
	requests: MediaRecordedRequest[]
	options: FakeMediaOptions
	/** The bytes speech answers with (deterministic). */
	speechAudio(): Uint8Array<ArrayBuffer>
	stop(): Promise<void>
}

const SPEECH_CHUNK = 4096
const DEFAULT_SPEECH_BYTES = 48 * 1024
/** A 1×1 PNG, as image answers' `b64_json`. */
export const TINY_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

const speechAudio = (length: number): Uint8Array<ArrayBuffer> => Uint8Array.from({ length }, (_, index) => (index * 31 + 7) % 251)

export function startFakeMedia(initial: FakeMediaOptions = {}): FakeMedia {
	const requests: MediaRecordedRequest[] = []
	const options: FakeMediaOptions = { ...initial }

	async function record(request: Request): Promise<MediaRecordedRequest> {
		const url = new URL(request.url)
		const raw = new Uint8Array(await request.arrayBuffer())
		const recorded: MediaRecordedRequest = { path: url.pathname, search: url.search, headers: Object.fromEntries(request.headers), raw }
		const contentType = request.headers.get('content-type') ?? ''
		if (contentType.startsWith('application/json')) recorded.json = JSON.parse(new TextDecoder().decode(raw))
		if (contentType.startsWith('multipart/form-data')) {
			const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData()
			recorded.fields = {}
			recorded.files = {}
			for (const [name, value] of form.entries()) {
				if (typeof value === 'string') {
					recorded.fields[name] = value
					continue
				}
				const file = value as unknown as File
				recorded.files[name] = { filename: file.name, type: file.type, bytes: new Uint8Array(await file.arrayBuffer()) }
			}
		}
		requests.push(recorded)
		return recorded
	}

	function images(recorded: MediaRecordedRequest) {
		const count = Number(recorded.json?.n ?? recorded.fields?.n ?? 1)
		return Response.json({
			created: 1_700_000_000,
			data: Array.from({ length: count }, () => ({ b64_json: TINY_PNG_BASE64 })),
			...(options.imageUsage ? { usage: { ...options.imageUsage, total_tokens: options.imageUsage.input_tokens + options.imageUsage.output_tokens, input_tokens_details: { text_tokens: options.imageUsage.input_tokens, image_tokens: 0 } } } : {}),
		})
	}

	function speech() {
		const audio = speechAudio(options.speechBytes ?? DEFAULT_SPEECH_BYTES)
		const delay = options.speechChunkDelayMs ?? 0
		let offset = 0
		const body = new ReadableStream<Uint8Array>({
			async pull(controller) {
				if (offset >= audio.length) return controller.close()
				if (delay > 0 && offset > 0) await Bun.sleep(delay)
				controller.enqueue(audio.slice(offset, offset + SPEECH_CHUNK))
				offset += SPEECH_CHUNK
			},
		})
		return new Response(body, { headers: { 'content-type': 'audio/mpeg' } })
	}

	function transcription(recorded: MediaRecordedRequest, task: 'transcribe' | 'translate') {
		const text = options.transcript ?? 'Hello from the fake transcriber.'
		const format = recorded.fields?.response_format ?? 'json'
		const usage = options.transcriptionUsage
		const seconds = usage?.type === 'duration' ? usage.seconds : 2.5
		switch (format) {
			case 'text': return new Response(`${text}\n`, { headers: { 'content-type': 'text/plain; charset=utf-8' } })
			case 'srt': return new Response(`1\n00:00:00,000 --> 00:00:02,500\n${text}\n\n`, { headers: { 'content-type': 'text/plain; charset=utf-8' } })
			case 'vtt': return new Response(`WEBVTT\n\n00:00:00.000 --> 00:00:02.500\n${text}\n\n`, { headers: { 'content-type': 'text/vtt; charset=utf-8' } })
			case 'verbose_json': return Response.json({
				task, language: 'english', duration: seconds, text,
				segments: [{ id: 0, seek: 0, start: 0, end: seconds, text, tokens: [1, 2, 3], temperature: 0, avg_logprob: -0.2, compression_ratio: 1, no_speech_prob: 0 }],
				...(usage ? { usage } : {}),
			})
			default: return Response.json({ text, ...(usage ? { usage } : {}) })
		}
	}

	function moderation(recorded: MediaRecordedRequest) {
		const input = recorded.json?.input
		const count = Array.isArray(input) && input.every((item: unknown) => typeof item === 'string') ? input.length : 1
		return Response.json({
			id: 'modr-fake',
			model: recorded.json?.model,
			results: Array.from({ length: count }, () => ({
				flagged: false,
				categories: { harassment: false, hate: false, violence: false },
				category_scores: { harassment: 0.0001, hate: 0.0001, violence: 0.0002 },
				category_applied_input_types: { harassment: ['text'], hate: ['text'], violence: ['text'] },
			})),
		})
	}

	function audioChat(recorded: MediaRecordedRequest) {
		const usage = options.chatUsage ?? { prompt: 100, promptAudio: 40, completion: 200, completionAudio: 150 }
		return Response.json({
			id: 'chatcmpl-audio', object: 'chat.completion', created: 1_700_000_000, model: recorded.json?.model,
			choices: [{
				index: 0, finish_reason: 'stop',
				message: { role: 'assistant', content: null, refusal: null, audio: { id: 'audio_fake', data: Buffer.from(speechAudio(64)).toString('base64'), expires_at: 1_700_003_600, transcript: 'Hello there.' } },
			}],
			usage: {
				prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion,
				prompt_tokens_details: { cached_tokens: 0, audio_tokens: usage.promptAudio },
				completion_tokens_details: { reasoning_tokens: 0, audio_tokens: usage.completionAudio, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
			},
		})
	}

	const server = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		async fetch(request) {
			const recorded = await record(request)
			if (options.failWith) return Response.json({ error: { message: `fake failure ${options.failWith}`, type: 'invalid_request_error', param: null, code: null } }, { status: options.failWith })
			const path = recorded.path
			if (/\/images\/(generations|edits|variations)$/.test(path)) return images(recorded)
			if (path.endsWith('/audio/speech')) return speech()
			if (path.endsWith('/audio/transcriptions')) return transcription(recorded, 'transcribe')
			if (path.endsWith('/audio/translations')) return transcription(recorded, 'translate')
			if (path.endsWith('/moderations')) return moderation(recorded)
			if (path.endsWith('/chat/completions')) return audioChat(recorded)
			return Response.json({ error: { message: `no route ${path}`, type: 'invalid_request_error', param: null, code: null } }, { status: 404 })
		},
	})

	return {
		url: `http://127.0.0.1:${server.port}`,
		requests,
		options,
		speechAudio: () => speechAudio(options.speechBytes ?? DEFAULT_SPEECH_BYTES),
		stop: () => server.stop(true),
	}
}
