/**
 * One Spark call over its WebSocket: sign the URL, send the request frame, read the answer frames.
 * The first frame is awaited before answering, so a refusal (handshake status or an error frame)
 * becomes an HTTP-like error the relay retries or reports; a whole answer is read to its last
 * frame, a stream is passed on frame by frame as OpenAI chunks.
 */
import type { BodyReader, OpenedResponse } from '@/lib/outbound'
import { WebSocketHandshakeError, type OpenedWebSocket } from '@/lib/outbound/websocket'
import { openAIChunkStream } from '../../formats/chunk-stream'
import { textReader } from '../../formats/sse'
import type { SelfOpenedCall, SelfOpenedResponse, UpstreamChannel } from '../types'
import { chunkWriter, wholeAnswer } from './answer'
import { failureMessage, failureStatus, isFailure, isLast, parseFrame, type SparkFrame } from './frames'
import { sparkFrame } from './request'
import { signedUrl } from './signed-url'
import { sparkVersion } from './versions'
import type { EventReader } from '../../formats/events'

const MILLISECONDS_PER_SECOND = 1000
const WEBSOCKET_SCHEMES: Record<string, string> = { 'http:': 'ws:', 'https:': 'wss:', 'ws:': 'ws:', 'wss:': 'wss:' }

class XunfeiKeyError extends Error {}

/** `APPID|APISecret|APIKey` (docs/specification/channels.md#types). */
function xunfeiCredentials(key: string) {
	const [appId, apiSecret, apiKey] = key.split('|').map((part) => part.trim())
	if (!appId || !apiSecret || !apiKey) throw new XunfeiKeyError('an iFlytek key is APPID|APISecret|APIKey')
	return { appId, apiSecret, apiKey }
}

/** The channel's base URL as a WebSocket URL (an http(s) base is accepted and switched). */
function webSocketBase(baseUrl: string): URL {
	const url = new URL(baseUrl)
	const scheme = WEBSOCKET_SCHEMES[url.protocol]
	if (!scheme) throw new Error(`an iFlytek base URL is ws(s):// or http(s)://, not ${url.protocol}`)
	return new URL(`${scheme}//${url.host}`)
}

function answered(status: number, contentType: string, url: string, body: BodyReader, text: () => Promise<string>): OpenedResponse {
	return {
		status, statusText: '', ok: status >= 200 && status < 300, headers: new Headers({ 'content-type': contentType }), url, redirected: false, body, text,
	}
}

const jsonAnswer = (status: number, url: string, value: unknown) => {
	const text = JSON.stringify(value)
	return answered(status, 'application/json', url, textReader(text), async () => text)
}

const refusal = (status: number, url: string, message: string) => jsonAnswer(status, url, { error: { message } })

async function nextFrame(socket: OpenedWebSocket): Promise<SparkFrame> {
	const text = await socket.next()
	if (text === undefined) throw new Error('the Spark connection closed before the answer ended')
	return parseFrame(text)
}

/** The stream after its first frame: one upstream frame per pull, the socket closed at the end. */
function streamFrom(first: SparkFrame, socket: OpenedWebSocket, model: string, created: number): EventReader {
	const write = chunkWriter(model, created)
	let pending: SparkFrame | undefined = first
	let finished = false
	return openAIChunkStream(async () => {
		if (finished) return undefined
		const frame = pending ?? await nextFrame(socket)
		pending = undefined
		if (isLast(frame) || isFailure(frame)) {
			finished = true
			socket.close()
		}
		return write(frame)
	}, async () => socket.close())
}

export async function openSpark(channel: UpstreamChannel, body: Record<string, unknown>, call: SelfOpenedCall): Promise<SelfOpenedResponse> {
	const credentials = xunfeiCredentials(channel.key)
	const version = sparkVersion(channel.other, body.model)
	const base = webSocketBase(channel.baseUrl)
	// The URL as shown (logs, the answer's `url`): the signed query stays out.
	const shownUrl = new URL(version.path, base).href
	let socket: OpenedWebSocket
	try {
		socket = await call.openWebSocket(signedUrl(base, version.path, credentials, call.now()), { signal: call.signal })
	} catch (error) {
		if (error instanceof WebSocketHandshakeError) return refusal(error.status, shownUrl, `the Spark handshake was refused with status ${error.status}`)
		throw error
	}
	try {
		socket.send(JSON.stringify(sparkFrame(body, credentials.appId, version.domain)))
		const created = Math.floor(call.now() / MILLISECONDS_PER_SECOND)
		const first = await nextFrame(socket)
		if (isFailure(first)) {
			socket.close()
			return refusal(failureStatus(first), shownUrl, failureMessage(first))
		}
		if (call.stream) {
			return { ...answered(200, 'text/event-stream', shownUrl, textReader(''), async () => ''), events: streamFrom(first, socket, call.model, created) }
		}
		const frames = [first]
		while (!isLast(frames.at(-1)!)) {
			const frame = await nextFrame(socket)
			if (isFailure(frame)) {
				socket.close()
				return refusal(failureStatus(frame), shownUrl, failureMessage(frame))
			}
			frames.push(frame)
		}
		socket.close()
		return jsonAnswer(200, shownUrl, wholeAnswer(frames, call.model, created))
	} catch (error) {
		socket.close()
		throw error
	}
}
