/**
 * Reading Responses API answers as they pass through (channels that speak the API): the usage of a
 * whole response, and of a stream's terminal event (`response.completed`, `response.incomplete`,
 * `response.failed`), and the generated text of the deltas. A stream ends with one of those or
 * with an `error` event; one cut before either failed.
 */
import type { Usage } from '@/billing/price'
import type { WireReader } from '../wire'
import { responseText, usageFromResponses } from './usage'

/** Event types whose `delta` is generated text. */
const TEXT_DELTAS = new Set([
	'response.output_text.delta', 'response.refusal.delta', 'response.function_call_arguments.delta', 'response.custom_tool_call_input.delta',
	'response.reasoning_text.delta', 'response.reasoning_summary_text.delta',
])

export const responsesWire: WireReader = {
	usageOf: (answer) => usageFromResponses(answer.usage),
	textOf: responseText,
	stream() {
		let usage: Usage | undefined
		return {
			cutMessage: 'the upstream stream ended before response.completed',
			usage: () => usage,
			inspect(event) {
				const type = event.type
				if (typeof type === 'string' && TEXT_DELTAS.has(type)) return { text: typeof event.delta === 'string' ? event.delta : '' }
				switch (type) {
					case 'response.completed':
					case 'response.incomplete':
						usage = usageFromResponses(event.response?.usage) ?? usage
						return { text: '', end: 'completed' }
					case 'response.failed':
						usage = usageFromResponses(event.response?.usage) ?? usage
						return { text: '', end: 'failed' }
					case 'error':
						return { text: '', end: 'failed' }
				}
				return { text: '' }
			},
		}
	},
}
