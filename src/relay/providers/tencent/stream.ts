/** Hunyuan's SSE stream → OpenAI chunks, usage in a final chunk. */
import type { BodyReader } from '@/lib/outbound'
import { eventChunkStream } from '../../formats/chunk-stream'
import { finishReason, hunyuanUsage, openAIToolCalls, upstreamFailure, type HunyuanChunk, type HunyuanUsage } from './answer'
import type { EventReader } from '../../formats/events'

export function hunyuanStreamToOpenAI(source: BodyReader, model: string): EventReader {
	let id = ''
	let created = 0
	let usage: HunyuanUsage | undefined
	const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })
	return eventChunkStream(source, {
		chunks(event) {
			if (event.data === '[DONE]') return 'end'
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
		},
		end: () => (usage ? [chunk([], { usage: hunyuanUsage(usage) })] : []),
		// Tencent Cloud answers a refused call with plain JSON (`Response.Error`) even for a stream.
		noEvents(answer) {
			const failure = (JSON.parse(answer) as { Response?: HunyuanChunk }).Response?.Error
			throw failure ? upstreamFailure(failure) : new SyntaxError('the upstream answered no stream events')
		},
	})
}
