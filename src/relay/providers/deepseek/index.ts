import { openAIChunkStream } from '../../formats/chunk-stream'
import { readSseEvents } from '../../formats/sse'
import { bearer } from '../openai-compatible'
import { openAIModelList } from '../openai-compatible/model-list'
import { identityOf, type Converter, type ProviderAdaptor } from '../types'
import { deepseekType } from './capabilities'
import { readDeepSeekBalance } from './balance'
import { withOpenAIUsage } from './usage'

/**
 * DeepSeek speaks OpenAI's format; the converter only rewrites the usage (see `usage.ts`), so
 * `reasoning_content` and everything else in answers and deltas passes through unchanged.
 */
const chat: Converter = {
	buildRequest(channel, body) {
		return {
			url: `${channel.baseUrl}/chat/completions`,
			headers: { 'content-type': 'application/json', ...bearer(channel) },
			body: JSON.stringify(body),
		}
	},
	toOpenAI(text) {
		return withOpenAIUsage(JSON.parse(text) as Record<string, unknown>)
	},
	streamToOpenAI(reader) {
		const events = readSseEvents(reader)
		return openAIChunkStream(async () => {
			const event = await events.next()
			if (!event || event.data === '[DONE]') return undefined
			// DeepSeek sends `: keep-alive` comments while busy; they carry no data.
			if (!event.data) return []
			return [withOpenAIUsage(JSON.parse(event.data) as Record<string, unknown>)]
		}, (reason) => events.cancel(reason))
	},
}

export const deepseek: ProviderAdaptor = {
	...identityOf(deepseekType),
	modelList: openAIModelList,
	readBalance: readDeepSeekBalance,
	converted: { chat },
	// In thinking mode DeepSeek refuses a tool-call turn sent back without its `reasoning_content`.
	reasoningContent: true,
	// DeepSeek's own switch (its thinking-mode guide): on for a budget or adaptive thinking, off for disabled.
	thinkingFields: (thinking) => ({ thinking: { type: thinking.type === 'disabled' ? 'disabled' : 'enabled' } }),
}
