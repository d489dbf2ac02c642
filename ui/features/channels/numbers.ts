/** Priority and weight as typed into the list (docs/specification/channels.md#the-channel-list); messages are zh source strings. */
import { PRIORITY_MIN, WEIGHT_MIN } from '@shared/channel-constants'

const numberMessages = {
	priorityInteger: '优先级必须是整数',
	priorityMinimum: '优先级不能小于 {min}',
	weightInteger: '权重必须是非负整数',
} as const

type Parsed = { value: number; error?: undefined } | { value?: undefined; error: string; values?: Record<string, number> }

const INTEGER = /^-?\d+$/

export function parsePriority(text: string): Parsed {
	const trimmed = text.trim()
	if (!INTEGER.test(trimmed)) return { error: numberMessages.priorityInteger }
	const value = Number(trimmed)
	if (value < PRIORITY_MIN) return { error: numberMessages.priorityMinimum, values: { min: PRIORITY_MIN } }
	return { value }
}

/** `floor` (the inline editor) turns a negative weight into 0; the tag dialog refuses it instead. */
export function parseWeight(text: string, { floor }: { floor: boolean }): Parsed {
	const trimmed = text.trim()
	if (!INTEGER.test(trimmed)) return { error: numberMessages.weightInteger }
	const value = Number(trimmed)
	if (value >= WEIGHT_MIN) return { value }
	return floor ? { value: WEIGHT_MIN } : { error: numberMessages.weightInteger }
}
