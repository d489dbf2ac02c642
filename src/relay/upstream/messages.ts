/**
 * What may be told of an upstream's error answer, to a client (the relay) or an admin (the channel
 * tools): the upstream's own message, with the channel's keys and key-like strings taken out, and
 * with where the upstream is (its URLs, its host name, IP addresses) taken out too — clients should
 * learn why a call failed, not which upstream a gateway uses.
 */
import { RelayError } from '../errors'

/** Long enough to explain, short enough for a log line or a toast. */
const MESSAGE_LIMIT = 500
/** Key parts shorter than this (a region, a version) are not secret and would blank ordinary words. */
const SECRET_PART_MIN_LENGTH = 4
/** `*` keeps masked keys (`sk-proj-****abcd`, as OpenAI echoes them) whole, so their visible ends go too. */
const KEY_LIKE = /\b(sk|key|AIza)[-_A-Za-z0-9*]{8,}/g
/**
 * Any web URL (a bracketed IPv6 host included), up to the first character that cannot be in one
 * unescaped, without the sentence's punctuation after it.
 */
const URL_LIKE = /\b(?:https?|wss?):\/\/(?:\[[\w:.%]+\])?(?:[^\s"'`<>()[\]{}]*[^\s"'`<>()[\]{},.;:!?])?/gi
/** A dotted IPv4 address, with its port if any; version numbers with more parts are left alone. */
const IPV4_LIKE = /(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?(?!\.?\d)/g
const HIDDEN = '***'

/** The channel as far as its error messages are concerned: its key, and where it is. */
export interface UpstreamIdentity {
	key: string
	/** The channel's base URL (may be empty: the adaptor's default, a public host, is then used). */
	baseUrl: string
}

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

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The base URL's host name (and port), matched as a whole name, case-insensitively; undefined when there is none. */
function hostPattern(baseUrl: string): RegExp | undefined {
	let hostName: string
	try {
		hostName = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '')
	} catch {
		return undefined
	}
	if (!hostName) return undefined
	return new RegExp(`(?<![\\w.-])${escapeRegExp(hostName)}(?::\\d{1,5})?(?![\\w-]|\\.\\w)`, 'gi')
}

/**
 * The message with every secret of the channel's key blanked — each line of a multi-key channel,
 * each `|`-separated part of a composite key (`APIKey|SecretKey`, `Ak|Sk|Region`), and anything
 * shaped like an API key even when it is not this channel's — and every URL, the channel's host
 * name and IPv4 addresses blanked; then cut to size. The rest of the message is kept as it was.
 */
export function scrubSecrets(message: string, channel: UpstreamIdentity): string {
	let text = message
	const parts = channel.key.split(/[|\n]/).map((part) => part.trim()).filter((part) => part.length >= SECRET_PART_MIN_LENGTH)
	// Longest first, so a part that contains another is blanked whole.
	for (const part of parts.sort((a, b) => b.length - a.length)) text = text.replaceAll(part, HIDDEN)
	text = text.replace(URL_LIKE, HIDDEN)
	const host = hostPattern(channel.baseUrl)
	if (host) text = text.replace(host, HIDDEN)
	text = text.replace(IPV4_LIKE, HIDDEN).replace(KEY_LIKE, HIDDEN)
	return text.slice(0, MESSAGE_LIMIT)
}

/**
 * The reader (of a body, or of its events), with an error the upstream reported in the middle of a
 * stream (a converter's RelayError, whose message reaches the client in the stream's error event)
 * scrubbed as above.
 */
export function scrubbedStreamErrors<Read>(reader: StreamReader<Read>, channel: UpstreamIdentity): StreamReader<Read> {
	// Not an async function: every chunk of every stream passes here, and only a failure needs work.
	const scrubbed = (error: unknown): never => {
		if (!(error instanceof RelayError)) throw error
		throw new RelayError(error.status, scrubSecrets(error.message, channel), error.type, error.code)
	}
	return {
		read: () => reader.read().catch(scrubbed),
		cancel: (reason) => reader.cancel(reason),
	}
}

interface StreamReader<Read> {
	read(): Promise<Read>
	cancel(reason?: unknown): Promise<void>
}
