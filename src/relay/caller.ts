/**
 * Who a relay call is for: the user and the token it runs as — a token the edge authenticated
 * (edge/token-auth.ts), or the playground's token made for one request — and the channel the key
 * pins, if any (`sk-KEY-CHANNELID`, admins only).
 */
export interface RelayCaller {
	user: { id: number; username: string; group: string; role: number }
	token: {
		id: number
		name: string
		group: string
		unlimited: boolean
		/** Undefined when the token may use every model. */
		modelLimits: ReadonlySet<string> | undefined
		/** Calls in flight at once; 0: no limit. */
		concurrencyLimit: number
		/** Whether its calls may be answered from, and recorded in, the response cache (false: the token opted out). */
		responseCache: boolean
	}
	pinnedChannelId: number | undefined
}
