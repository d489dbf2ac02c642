/** Channel limits, tiers, tag states and the list's normal form: zod-free, for the channel pages (`channel.ts` re-exports them). */

export const PRIORITY_MIN = -999
export const WEIGHT_MIN = 0
export const DEFAULT_CHANNEL_GROUP = 'default'
/** Response-time colour tiers in milliseconds (seed 001 §4): up to each bound green, lime, yellow; above red; 0 untested. */
export const RESPONSE_TIME_TIERS_MS = { fast: 1000, fair: 3000, slow: 5000 } as const

export const CREATE_MODE = { single: 'single', batch: 'batch' } as const

/** Trimmed, non-empty, first occurrence kept: the one normal form of `models` and `group`. */
export function splitList(value: string | readonly string[]): string[] {
	const items = (typeof value === 'string' ? value.split(',') : value.flatMap((item) => item.split(',')))
		.map((item) => item.trim())
		.filter(Boolean)
	return [...new Set(items)]
}

/** The longest channel name and tag the API takes. */
export const CHANNEL_NAME_MAX_LENGTH = 128
export const CHANNEL_TAG_MAX_LENGTH = 64

/** Tag rows: 1 when every channel of the tag is enabled, 2 when none is, 0 when some are. */
export const TAG_STATUS = { mixed: 0, enabled: 1, disabled: 2 } as const

/** Kinds of relay layer upstream detection tells apart. */
export const UPSTREAM_CLIENT_TYPE = { openai: 'openai', azure: 'azure', python: 'python', go: 'go', unknown: 'unknown' } as const
