/**
 * Who a relay call is for: the user and the token it runs as — a token the edge authenticated
 * (edge/token-auth.ts), or the playground's token made for one request — and the channel the key
 * pins, if any (`sk-KEY-CHANNELID`, admins only).
 */
/** A token's or user's own call limits (requests and tokens a minute, requests a day, calls at once); 0 sets none. */
export interface CallLimits {
	rpm: number
	tpm: number
	rpd: number
	concurrency: number
}

export const NO_CALL_LIMITS: CallLimits = Object.freeze({ rpm: 0, tpm: 0, rpd: 0, concurrency: 0 })

/** The limits of a token or user row; all zero comes back as the one shared `NO_CALL_LIMITS`. */
export function callLimitsOf(row: { rpm_limit?: unknown; tpm_limit?: unknown; rpd_limit?: unknown; concurrency_limit?: unknown }): CallLimits {
	const rpm = Number(row.rpm_limit ?? 0) || 0
	const tpm = Number(row.tpm_limit ?? 0) || 0
	const rpd = Number(row.rpd_limit ?? 0) || 0
	const concurrency = Number(row.concurrency_limit ?? 0) || 0
	return rpm || tpm || rpd || concurrency ? { rpm, tpm, rpd, concurrency } : NO_CALL_LIMITS
}

export interface RelayCaller {
	/** `group`: the user's own, or the one an active plan puts them in. */
	user: { id: number; username: string; group: string; role: number; limits: CallLimits }
	token: {
		id: number
		name: string
		group: string
		unlimited: boolean
		/** Undefined when the token may use every model. */
		modelLimits: ReadonlySet<string> | undefined
		limits: CallLimits
		/** Whether its calls may be answered from, and recorded in, the response cache (false: the token opted out). */
		responseCache: boolean
		/** Spend limits over rolling windows, each `{seconds, quota}` (billing/token-windows.ts); absent or empty: none. */
		quotaWindows?: readonly { seconds: number; quota: number }[]
	}
	pinnedChannelId: number | undefined
}
