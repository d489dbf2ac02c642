/**
 * Reading Claude's answers as they pass through (same-format channels): the usage from
 * `message_start` and the cumulative totals of `message_delta` — the same numbers the converted path
 * bills — and the generated text. A stream ends with `message_stop`, or with the upstream's own
 * `error` event; one cut before either failed.
 */
import type { Json } from '../events'
import type { WireReader } from '../wire'
import { blockText, usageFromClaude } from './usage'

export const claudeWire: WireReader = {
	usageOf: (answer) => usageFromClaude(answer.usage),
	textOf: (answer) => (Array.isArray(answer.content) ? answer.content.map(blockText).join('') : ''),
	stream() {
		const usage: Json = {}
		return {
			cutMessage: 'the upstream stream ended before message_stop',
			usage: () => usageFromClaude(usage),
			inspect(event) {
				let text: unknown = ''
				switch (event.type) {
					case 'message_start':
						Object.assign(usage, event.message?.usage)
						break
					case 'content_block_start': {
						const block = event.content_block ?? {}
						text = block.text ?? block.thinking ?? block.name ?? ''
						break
					}
					case 'content_block_delta': {
						const delta = event.delta ?? {}
						text = delta.text ?? delta.thinking ?? delta.partial_json ?? ''
						break
					}
					case 'message_delta':
						// Counts in message_delta are cumulative totals: they replace, never add.
						for (const [field, value] of Object.entries(event.usage ?? {})) if (value !== null && value !== undefined) usage[field] = value
						break
					case 'message_stop':
						return { text: '', end: 'completed' }
					case 'error':
						return { text: '', end: 'failed' }
				}
				return { text: typeof text === 'string' ? text : '' }
			},
		}
	},
}
