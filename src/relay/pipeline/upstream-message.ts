/**
 * What may be told of an upstream's error answer, to a client (the relay) or an admin (the channel
 * tools): the upstream's own message, with the channel's keys and key-like strings taken out.
 */

/** Long enough to explain, short enough for a log line or a toast. */
const MESSAGE_LIMIT = 500
/** Key parts shorter than this (a region, a version) are not secret and would blank ordinary words. */
const SECRET_PART_MIN_LENGTH = 4
const KEY_LIKE = /\b(sk|key|AIza)[-_A-Za-z0-9]{8,}/g

/**
 * The message of an error answer: OpenAI's `{error:{message}}` or `{error:"…"}`, a plain
 * `{message}`, Cloudflare's `{errors:[{message}]}` or FastAPI's `{detail}`; undefined for anything
 * else (an HTML error page says nothing useful).
 */
export function upstreamMessageOf(text: string): string | undefined {
	try {
		const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown; errors?: { message?: unknown }[]; detail?: unknown }
		const found = (typeof parsed.error === 'string' ? parsed.error : parsed.error?.message) ?? parsed.message ?? parsed.errors?.[0]?.message ?? parsed.detail
		return typeof found === 'string' && found ? found : undefined
	} catch {
		return undefined
	}
}

/**
 * The message cut to size with every secret of the channel's key blanked: each line of a
 * multi-key channel and each `|`-separated part of a composite key (`APIKey|SecretKey`, `Ak|Sk|Region`),
 * and anything shaped like an API key even when it is not this channel's.
 */
export function scrubSecrets(message: string, key: string): string {
	let text = message.slice(0, MESSAGE_LIMIT)
	const parts = key.split(/[|\n]/).map((part) => part.trim()).filter((part) => part.length >= SECRET_PART_MIN_LENGTH)
	// Longest first, so a part that contains another is blanked whole.
	for (const part of parts.sort((a, b) => b.length - a.length)) text = text.replaceAll(part, '***')
	return text.replace(KEY_LIKE, '***')
}
