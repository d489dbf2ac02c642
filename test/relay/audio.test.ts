/**
 * `/v1/audio/speech`, `/transcriptions` and `/translations` through the `openai` SDK: speech's bytes
 * streamed through and charged by the input text's tokens; uploads passed intact, every
 * `response_format` passed back as the upstream sent it, and charged from the usage the upstream
 * reports (tokens, or seconds) with the `AudioRatio` / `AudioCompletionRatio` options acting.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import OpenAI, { toFile } from 'openai'
import { CHANNEL_TYPE } from '@shared/channel-type'
import { databaseTargets } from '../helpers/database'
import { eventually } from '../helpers/eventually'
import { failureOf } from '../helpers/fixture-upstream'
import { startMediaSuite, type MediaSuite } from '../helpers/media-relay'

const WAV = Buffer.from('RIFF....WAVEfmt fake audio bytes')
const SPEECH_INPUT = 'The quick brown fox jumps over the lazy dog.'
/** SPEECH_INPUT in o200k tokens. */
const SPEECH_INPUT_TOKENS = 10
const TRANSCRIPT = 'Hello from the fake transcriber.'
/** The answers' text counted with o200k: the transcript, then the srt and vtt bodies of fake-media.ts. */
const TRANSCRIPT_TOKENS = 7
const SRT_TOKENS = 26
const VTT_TOKENS = 28
const TOKEN_USAGE = { type: 'tokens' as const, input_tokens: 120, output_tokens: 30, input_token_details: { text_tokens: 20, audio_tokens: 100 } }
const WHISPER_RATIO = 15

for (const target of databaseTargets()) {
	describe(`audio on ${target.dialect}`, () => {
		let suite: MediaSuite
		const audio = () => toFile(WAV, 'speech.wav', { type: 'audio/wav' })
		beforeAll(async () => {
			suite = await startMediaSuite(target, {
				options: {
					ModelRatio: { 'tts-1': 3, 'gpt-4o-transcribe': 2, 'gpt-4o-mini-transcribe': 2, 'whisper-1': WHISPER_RATIO, 'gpt-4o-audio-preview': 1.25, 'claude-sonnet-4-5': 1 },
					CompletionRatio: { 'gpt-4o-transcribe': 4, 'gpt-4o-mini-transcribe': 4, 'gpt-4o-audio-preview': 4 },
					AudioRatio: { 'gpt-4o-transcribe': 3, 'gpt-4o-audio-preview': 16 },
					AudioCompletionRatio: { 'gpt-4o-audio-preview': 2 },
				},
				channels: (url) => [
					{ type: CHANNEL_TYPE.openai, name: 'openai', base_url: url, models: 'tts-1,gpt-4o-transcribe,gpt-4o-mini-transcribe,whisper-1,gpt-4o-audio-preview' },
					{ type: CHANNEL_TYPE.anthropic, name: 'claude', key: 'claude-key', base_url: url, models: 'claude-sonnet-4-5' },
				],
			})
		})
		beforeEach(() => {
			suite.upstream.requests.length = 0
			suite.upstream.options.transcriptionUsage = undefined
			suite.upstream.options.speechChunkDelayMs = undefined
		})
		afterAll(() => suite.close())

		test('speech streams the upstream\'s audio bytes through and is charged by the input text\'s tokens at the model\'s ratio', async () => {
			const { result, charge } = await suite.charged(async () => {
				const response = await suite.client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: SPEECH_INPUT, response_format: 'mp3' })
				return { type: response.headers.get('content-type'), bytes: new Uint8Array(await response.arrayBuffer()) }
			})
			expect(result.type).toBe('audio/mpeg')
			expect(result.bytes).toEqual(suite.upstream.speechAudio())
			expect(charge).toBe(SPEECH_INPUT_TOKENS * 3)
			const sent = suite.upstream.requests.at(-1)!
			expect(sent.path).toBe('/v1/audio/speech')
			expect(sent.json).toEqual({ model: 'tts-1', voice: 'alloy', input: SPEECH_INPUT, response_format: 'mp3' })
			expect(await suite.lastConsumeLog()).toMatchObject({ model_name: 'tts-1', prompt_tokens: SPEECH_INPUT_TOKENS, completion_tokens: 0, quota: 30 })
		})

		test('speech whose client goes away mid-audio is settled for what it started, and no hold stays pending', async () => {
			suite.upstream.options.speechChunkDelayMs = 100
			const before = await suite.balances()
			const controller = new AbortController()
			const response = await fetch(`${suite.harness.baseUrl}/v1/audio/speech`, {
				method: 'POST', signal: controller.signal,
				headers: { authorization: `Bearer ${suite.key}`, 'content-type': 'application/json' },
				body: JSON.stringify({ model: 'tts-1', voice: 'alloy', input: SPEECH_INPUT }),
			})
			const reader = response.body!.getReader()
			expect((await reader.read()).done).toBe(false)
			controller.abort()
			await eventually(async () => (await suite.pendingHolds()).length === 0)
			expect((await suite.balances()).used - before.used).toBe(SPEECH_INPUT_TOKENS * 3)
		})

		test('speech whose upstream breaks after its headers, before any audio, is a 502 for the client and not billed', async () => {
			// An upstream that answers 200 and closes the connection before the first chunk of its body.
			const breaking = Bun.listen({
				hostname: '127.0.0.1', port: 0,
				socket: {
					data(socket) {
						socket.end('HTTP/1.1 200 OK\r\ncontent-type: audio/mpeg\r\ntransfer-encoding: chunked\r\n\r\n')
					},
				},
			})
			try {
				await suite.harness.createChannel({ type: CHANNEL_TYPE.openai, name: 'breaking', base_url: `http://127.0.0.1:${breaking.port}`, models: 'tts-breaking' })
				await suite.harness.ferry.dependencies.options.set('ModelRatio', JSON.stringify({ ...suite.harness.ferry.dependencies.options.get('ModelRatio'), 'tts-breaking': 3 }))
				const before = await suite.balances()
				const response = await fetch(`${suite.harness.baseUrl}/v1/audio/speech`, {
					method: 'POST', headers: { authorization: `Bearer ${suite.key}`, 'content-type': 'application/json' },
					body: JSON.stringify({ model: 'tts-breaking', voice: 'alloy', input: SPEECH_INPUT }),
				})
				expect(response.status).toBe(502)
				expect(await response.json()).toMatchObject({ error: { code: 'bad_gateway' } })
				await eventually(async () => (await suite.pendingHolds()).length === 0)
				expect(await suite.balances()).toEqual(before)
			} finally {
				breaking.stop(true)
			}
		})

		test('a transcription\'s upload reaches the upstream intact and it is charged by the reported tokens, audio input at AudioRatio', async () => {
			suite.upstream.options.transcriptionUsage = TOKEN_USAGE
			const { result, charge } = await suite.charged(async () => suite.client.audio.transcriptions.create({ model: 'gpt-4o-transcribe', file: await audio(), language: 'en' }))
			expect(result).toEqual({ text: TRANSCRIPT, usage: TOKEN_USAGE } as never)
			// (20 text + 100 audio × AudioRatio 3 + 30 output × CompletionRatio 4) × ModelRatio 2
			expect(charge).toBe(880)
			const sent = suite.upstream.requests.at(-1)!
			expect(sent.path).toBe('/v1/audio/transcriptions')
			expect(sent.fields).toEqual({ model: 'gpt-4o-transcribe', language: 'en' })
			// The SDK's multipart encoder names a .wav file's type audio/x-wav; what it sent arrives.
			expect(sent.files!.file).toEqual({ filename: 'speech.wav', type: expect.stringMatching(/^audio\/(x-)?wav$/), bytes: new Uint8Array(WAV) })
			expect(await suite.lastConsumeLog()).toMatchObject({ prompt_tokens: 120, completion_tokens: 30, quota: 880 })
		})

		test('without an AudioRatio for the model, audio input tokens cost what text input does', async () => {
			suite.upstream.options.transcriptionUsage = TOKEN_USAGE
			const { charge } = await suite.charged(async () => suite.client.audio.transcriptions.create({ model: 'gpt-4o-mini-transcribe', file: await audio() }))
			// (20 + 100 + 30 × 4) × 2
			expect(charge).toBe(480)
		})

		test('a duration-priced model is charged for the seconds it reports, 1000 audio tokens a minute', async () => {
			suite.upstream.options.transcriptionUsage = { type: 'duration', seconds: 60 }
			const { charge } = await suite.charged(async () => suite.client.audio.transcriptions.create({ model: 'whisper-1', file: await audio() }))
			expect(charge).toBe(1000 * WHISPER_RATIO)
			// verbose_json's duration alone: 2.5 s, counted as 3 started seconds → 50 tokens.
			suite.upstream.options.transcriptionUsage = undefined
			const verbose = await suite.charged(async () => suite.client.audio.transcriptions.create({ model: 'whisper-1', file: await audio(), response_format: 'verbose_json', timestamp_granularities: ['segment'] }))
			expect(verbose.charge).toBe(50 * WHISPER_RATIO)
			expect(verbose.result).toMatchObject({ task: 'transcribe', duration: 2.5, text: TRANSCRIPT })
		})

		test('every response format comes back as the upstream sent it; the plain-text ones are charged by their text counted locally', async () => {
			for (const [format, tokens, expected] of [
				['text', TRANSCRIPT_TOKENS, `${TRANSCRIPT}\n`],
				['srt', SRT_TOKENS, `1\n00:00:00,000 --> 00:00:02,500\n${TRANSCRIPT}\n\n`],
				['vtt', VTT_TOKENS, `WEBVTT\n\n00:00:00.000 --> 00:00:02.500\n${TRANSCRIPT}\n\n`],
			] as const) {
				const { result, charge } = await suite.charged(async () => suite.client.audio.transcriptions.create({ model: 'whisper-1', file: await audio(), response_format: format }))
				expect(result as unknown).toBe(expected)
				expect(charge).toBe(tokens * WHISPER_RATIO)
				expect(suite.upstream.requests.at(-1)!.fields!.response_format).toBe(format)
			}
			const json = await suite.charged(async () => suite.client.audio.transcriptions.create({ model: 'whisper-1', file: await audio(), response_format: 'json' }))
			expect(json.result).toEqual({ text: TRANSCRIPT })
			expect(json.charge).toBe(TRANSCRIPT_TOKENS * WHISPER_RATIO)
			expect(await suite.lastConsumeLog()).toMatchObject({ other: { local_count_tokens: true } })
		})

		test('a translation is relayed to /v1/audio/translations and charged for its seconds', async () => {
			suite.upstream.options.transcriptionUsage = { type: 'duration', seconds: 30 }
			const { result, charge } = await suite.charged(async () => suite.client.audio.translations.create({ model: 'whisper-1', file: await audio(), prompt: 'A greeting.' }))
			expect(result).toMatchObject({ text: TRANSCRIPT })
			expect(charge).toBe(500 * WHISPER_RATIO)
			const sent = suite.upstream.requests.at(-1)!
			expect(sent.path).toBe('/v1/audio/translations')
			expect(sent.fields).toEqual({ model: 'whisper-1', prompt: 'A greeting.' })
		})

		test('an audio chat model\'s audio tokens are priced by AudioRatio, its audio output by AudioRatio × AudioCompletionRatio', async () => {
			const { charge } = await suite.charged(() => suite.client.chat.completions.create({
				model: 'gpt-4o-audio-preview', modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'wav' }, messages: [{ role: 'user', content: 'Say hello' }],
			}))
			// (60 text in + 40 audio in × 16 + 50 text out × 4 + 150 audio out × 16 × 2) × 1.25
			expect(charge).toBe(7125)
			expect((await suite.lastConsumeLog())!.other).toMatchObject({ audio_ratio: 16, audio_completion_ratio: 2, audio_input_tokens: 40, audio_output_tokens: 150 })
		})

		test('audio calls no channel can serve, or without their audio, are a 400 before any hold', async () => {
			const before = await suite.balances()
			const unsupported = await failureOf(suite.client.audio.speech.create({ model: 'claude-sonnet-4-5', voice: 'alloy', input: 'Hi' }))
			expect(unsupported?.status).toBe(400)
			expect(unsupported!.code).toBe('endpoint_not_supported')
			const noInput = await failureOf(suite.client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: '' }))
			expect(noInput?.message).toContain('input:')
			const form = new FormData()
			form.append('model', 'whisper-1')
			const noFile = await fetch(`${suite.harness.baseUrl}/v1/audio/transcriptions`, { method: 'POST', headers: { authorization: `Bearer ${suite.key}` }, body: form })
			expect(noFile.status).toBe(400)
			expect(await noFile.json()).toMatchObject({ error: { message: 'file: file is required' } })
			const streamed = await failureOf(suite.client.audio.transcriptions.create({ model: 'gpt-4o-transcribe', file: await audio(), stream: true }))
			expect(streamed?.status).toBe(400)
			expect(suite.upstream.requests).toHaveLength(0)
			expect(await suite.balances()).toEqual(before)
			expect(await suite.pendingHolds()).toEqual([])
		})
	})
}
