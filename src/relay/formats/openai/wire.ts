/** Reading OpenAI-format answers (the canonical form): chat completions, completions, embeddings. */
import type { Usage } from '@/billing/price'
import type { WireReader } from '../wire'
import { answerText, choiceText, usageFrom } from './usage'

/**
 * A `usage` field with a value other than null (OpenAI writes `"usage":null` on every chunk but the
 * last when usage is asked for). A quote inside a JSON string is escaped, so text the model
 * generated cannot look like this unless it names a key of its own that ends in `usage`: then the
 * event is merely parsed.
 */
const USAGE_FIELD = /"usage"\s*:\s*(?!null)/

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
			needsReading: (json) => USAGE_FIELD.test(json),
		}
	},
}
