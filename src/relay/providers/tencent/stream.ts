/** Hunyuan's SSE stream → OpenAI chunks, usage in a final chunk. */
import type { BodyReader } from '@/lib/outbound'
import { openAIChunkStream, readSseEvents, recordingHead } from '../../formats/sse'
import { finishReason, hunyuanUsage, openAIToolCalls, upstreamFailure, type HunyuanChunk, type HunyuanUsage } from './answer'

export function hunyuanStreamToOpenAI(source: BodyReader, model: string): BodyReader {
	const recorded = recordingHead(source)
	const events = readSseEvents(recorded.reader)
	let id = ''
	let created = 0
	let usage: HunyuanUsage | undefined
	let sawEvent = false
	let finished = false
	const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })
	return openAIChunkStream(async () => {
		if (finished) return undefined
		const event = await events.next()
		if (!event || event.data === '[DONE]') {
			finished = true
			// Tencent Cloud answers a refused call with plain JSON (`Response.Error`) even for a stream.
			if (!sawEvent) {
				const answer = JSON.parse(recorded.head()) as { Response?: HunyuanChunk }
				const failure = answer.Response?.Error
				throw failure ? upstreamFailure(failure) : new SyntaxError('the upstream answered no stream events')
			}
			return usage ? [chunk([], { usage: hunyuanUsage(usage) })] : []
		}
		sawEvent = true
		const data = JSON.parse(event.data) as HunyuanChunk
		const failure = data.ErrorMsg ?? data.Error
		if (failure) throw upstreamFailure(failure)
		id = data.Id ?? id
		created = data.Created ?? created
		usage = data.Usage ?? usage
		return (data.Choices ?? []).map((choice, index) => chunk([{
			index: choice.Index ?? index,
			delta: {
				...(choice.Delta?.Role ? { role: 'assistant' } : {}),
				content: choice.Delta?.Content ?? '',
				...(choice.Delta?.ReasoningContent ? { reasoning_content: choice.Delta.ReasoningContent } : {}),
				...openAIToolCalls(choice.Delta?.ToolCalls, true),
			},
			finish_reason: finishReason(choice.FinishReason),
		}]))
	}, (reason) => events.cancel(reason))
}
