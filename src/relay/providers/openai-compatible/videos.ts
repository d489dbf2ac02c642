/**
 * OpenAI's Videos API (`/v1/videos`: create, retrieve, content, delete, remix) as a video adaptor,
 * for every upstream that serves it in OpenAI's own wire: OpenAI, and Azure OpenAI's v1 route.
 * A create goes as the client sent it — its JSON, or its multipart bytes with the reference image.
 */
import type { UpstreamChannel, UpstreamRequest, VideoAdaptor, VideoState } from '../types'
import { isObject } from '../../formats/json'

const STATUSES: readonly VideoState['status'][] = ['queued', 'in_progress', 'completed', 'failed']
const MAX_PROGRESS = 100

/** An OpenAI video object → its state; throws a SyntaxError for anything else. */
export function openAIVideoState(value: unknown): VideoState {
	if (!isObject(value) || typeof value.id !== 'string' || value.id === '') throw new SyntaxError('not a video object')
	const status = STATUSES.find((known) => known === value.status) ?? 'queued'
	const progress = typeof value.progress === 'number' && Number.isFinite(value.progress) ? Math.min(MAX_PROGRESS, Math.max(0, Math.round(value.progress))) : 0
	const error = isObject(value.error) && typeof value.error.message === 'string' ? value.error.message : ''
	return { status, progress, failReason: status === 'failed' ? error || 'the upstream reported the video failed' : '', hasVideo: status === 'completed', videoUrl: '' }
}

interface OpenAIVideosRoute {
	/** The collection's URL: `https://api.openai.com/v1/videos`. */
	base(channel: UpstreamChannel): string
	headers(channel: UpstreamChannel): Record<string, string>
}

export function openAIVideos(route: OpenAIVideosRoute): VideoAdaptor {
	const request = (channel: UpstreamChannel, method: UpstreamRequest['method'], path: string, body = ''): UpstreamRequest =>
		({ method, url: `${route.base(channel)}${path}`, headers: { ...route.headers(channel), ...(body ? { 'content-type': 'application/json' } : {}) }, body })
	return {
		remixes: true,
		submitRequest(channel, { body, upload, remixOf }) {
			// A remix takes a new prompt only: length and size are the original's.
			if (remixOf) return request(channel, 'POST', `/${encodeURIComponent(remixOf)}/remix`, JSON.stringify({ prompt: body.prompt }))
			if (upload) return { url: route.base(channel), headers: { ...route.headers(channel), 'content-type': upload.contentType }, body: upload.bytes }
			return request(channel, 'POST', '', JSON.stringify(body))
		},
		readSubmit(text) {
			const value = JSON.parse(text) as unknown
			const state = openAIVideoState(value)
			return { id: (value as { id: string }).id, state }
		},
		pollRequest: (channel, id) => request(channel, 'GET', `/${encodeURIComponent(id)}`),
		readPoll: (text) => openAIVideoState(JSON.parse(text)),
		contentRequest: (channel, id, variant) => request(channel, 'GET', `/${encodeURIComponent(id)}/content?variant=${variant}`),
		deleteRequest: (channel, id) => request(channel, 'DELETE', `/${encodeURIComponent(id)}`),
	}
}
