/** Reading OpenAI-format answers (the canonical form): chat completions, completions, embeddings. */
import type { Usage } from '@/billing/price'
import type { WireReader } from '../wire'
import { answerText, choiceText, usageFrom } from './usage'

export const openAIWire: WireReader = {
	usageOf: (answer) => usageFrom(answer.usage),
	textOf: answerText,
	stream() {
		let usage: Usage | undefined
		return {
			inspect(chunk) {
				const chunkUsage = chunk.usage ? usageFrom(chunk.usage) : undefined
				if (chunkUsage) usage = chunkUsage
				const choices = chunk.choices
				if (!Array.isArray(choices)) return { text: '' }
				let text = ''
				for (const choice of choices) if (typeof choice === 'object' && choice !== null) text += choiceText(choice)
				return { text, usageOnly: choices.length === 0 && chunkUsage !== undefined }
			},
			usage: () => usage,
		}
	},
}
