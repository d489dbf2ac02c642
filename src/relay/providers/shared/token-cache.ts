/**
 * Access tokens that adaptors obtain by exchanging a channel's key (Baidu's OAuth token, Vertex's
 * service-account token), cached per credential until their renewal time. Concurrent calls that
 * find no usable token share one exchange; a failed exchange is forgotten, so the next call retries.
 */

export interface IssuedToken {
	token: string
	/** Unix milliseconds after which the token must be exchanged again (its expiry less a margin). */
	renewAt: number
}

interface Entry {
	token: Promise<string>
	renewAt: number
}

export class TokenCache {
	private readonly entries = new Map<string, Entry>()

	/** The token cached under `credential`, or the one `exchange` issues; `now` is Unix milliseconds. */
	async get(credential: string, now: number, exchange: () => Promise<IssuedToken>): Promise<string> {
		const cached = this.entries.get(credential)
		if (cached && cached.renewAt > now) return cached.token
		// While the exchange is pending, the entry counts as fresh, so later callers wait for it.
		const entry: Entry = { token: Promise.resolve(''), renewAt: Number.POSITIVE_INFINITY }
		entry.token = exchange().then((issued) => {
			entry.renewAt = issued.renewAt
			return issued.token
		})
		this.entries.set(credential, entry)
		try {
			return await entry.token
		} catch (error) {
			if (this.entries.get(credential) === entry) this.entries.delete(credential)
			throw error
		}
	}

	/** Forgets every token (the upstream said one is no longer valid, or a test starts afresh). */
	clear() {
		this.entries.clear()
	}
}
