/** Channel limits, tiers, tag states, the list's normal form and the key's destination: zod-free, for the channel pages (`channel.ts` re-exports them). */
import { DEFAULT_CHANNEL_OTHER, type ChannelType } from './channel-type'

export const PRIORITY_MIN = -999
export const WEIGHT_MIN = 0
export const DEFAULT_CHANNEL_GROUP = 'default'
/** Response-time colour tiers in milliseconds (docs/specification/channels.md#the-channel-list): up to each bound green, lime, yellow; above red; 0 untested. */
export const RESPONSE_TIME_TIERS_MS = { fast: 1000, fair: 3000, slow: 5000 } as const

/**
 * How `POST /api/channel/` reads `key`: one key (`single`), one channel per key line (`batch`), or
 * one channel holding every key (`multi_key`: a line each, or a JSON array).
 */
export const CREATE_MODE = { single: 'single', batch: 'batch', multiKey: 'multi_key' } as const

/** What a channel holds: one key (`channels.key`), or a pool of keys (`channel_keys`), new-api's names. */
export const CHANNEL_MODE = { single: 'single', multiKey: 'multi_key' } as const
export type ChannelMode = (typeof CHANNEL_MODE)[keyof typeof CHANNEL_MODE]

/** How a multi-key channel picks among its enabled keys (new-api's names): at random, or each in turn. */
export const MULTI_KEY_MODE = { random: 'random', polling: 'polling' } as const
export type MultiKeyMode = (typeof MULTI_KEY_MODE)[keyof typeof MULTI_KEY_MODE]

/** The most keys one channel holds, and the longest key (UTF-8 bytes; a Vertex AI service account is about 2.4 KB). */
export const CHANNEL_KEYS_MAX = 10_000
export const CHANNEL_KEY_MAX_BYTES = 16 * 1024
/** The longest `last_error` a key keeps, in characters. */
export const KEY_LAST_ERROR_MAX_LENGTH = 500
/** `GET /api/channel/test/{id}?keys=all` tests every key of the channel. */
export const TEST_ALL_KEYS = 'all'

/** Trimmed, non-empty, first occurrence kept: the one normal form of `models` and `group`. */
export function splitList(value: string | readonly string[]): string[] {
	const items = (typeof value === 'string' ? value.split(',') : value.flatMap((item) => item.split(',')))
		.map((item) => item.trim())
		.filter(Boolean)
	return [...new Set(items)]
}

/** The most models, groups or channel ids one request may list, and the longest comma-separated list text. */
export const CHANNEL_LIST_MAX_ITEMS = 10_000
export const CHANNEL_LIST_MAX_TEXT = 1_000_000

/** The longest channel name and tag the API takes. */
export const CHANNEL_NAME_MAX_LENGTH = 128
export const CHANNEL_TAG_MAX_LENGTH = 64
/**
 * The longest model name and group name in a channel's lists, in characters. Each (group, model)
 * pair is a key of the channel's abilities, and an index entry must stay within a database page
 * (Postgres refuses one over about 2 700 bytes).
 */
export const CHANNEL_MODEL_NAME_MAX_LENGTH = 256
export const CHANNEL_GROUP_NAME_MAX_LENGTH = 64

/** Tag rows: 1 when every channel of the tag is enabled, 2 when none is, 0 when some are. */
export const TAG_STATUS = { mixed: 0, enabled: 1, disabled: 2 } as const

/**
 * Whether Ferry may reach a channel's base URL (`POST /api/channel/check`): `public`; `private_allowed`
 * (a private network the super admin allows); `private_blocked` (a private network the private-upstream
 * settings refuse: every call to it fails until they allow it); `refused` (never reachable: a cloud
 * metadata or reserved address, or not an http(s) URL); `unknown` (the name did not resolve in time).
 */
export const BASE_URL_REACH = {
	public: 'public', privateAllowed: 'private_allowed', privateBlocked: 'private_blocked', refused: 'refused', unknown: 'unknown',
} as const
export type BaseUrlReach = (typeof BASE_URL_REACH)[keyof typeof BASE_URL_REACH]

/**
 * The schemes a channel's base URL may have: http(s), and ws(s) for the upstreams the relay speaks to
 * over WebSocket (iFlytek, which also takes an http(s) base and switches it).
 */
export const BASE_URL_SCHEMES: readonly string[] = ['http:', 'https:', 'ws:', 'wss:']

/**
 * Whether a channel's base URL (trailing slashes gone) may be stored: empty (the type's default), or an
 * absolute URL that `new URL` parses, with a host and one of BASE_URL_SCHEMES. Paths (`/v1`, a
 * `{model}` variable), ports and IPv6 hosts (`http://[::1]:8080`) are fine; where it leads is checked
 * when it is called (private networks, reserved addresses).
 */
export function isChannelBaseUrl(baseUrl: string): boolean {
	if (baseUrl === '') return true
	try {
		const url = new URL(baseUrl)
		return BASE_URL_SCHEMES.includes(url.protocol) && url.hostname !== ''
	} catch {
		return false
	}
}

/** Kinds of relay layer upstream detection tells apart. */
export const UPSTREAM_CLIENT_TYPE = { openai: 'openai', azure: 'azure', python: 'python', go: 'go', unknown: 'unknown' } as const

/**
 * What decides where a channel's stored key is sent: the type (each has its own default host and
 * wire format), the base URL, and `other`, from which some types build the URL (Vertex AI's region
 * names the host; Cloudflare's account, Gemini's and iFlytek's versions and Azure's API version are
 * in the URL). Keys are never read back, so an admin who could change any of these without the key
 * could send it to a host of its own choosing: on an edit or a copy, changing them takes the key
 * again, unless the super admin does it.
 */
export interface KeyDestination {
	type: number
	base_url: string
	other: string
}

function destinationText({ type, base_url, other }: KeyDestination): string {
	const normalOther = other.trim() || (DEFAULT_CHANNEL_OTHER[type as ChannelType] ?? '')
	return JSON.stringify([type, base_url.trim().replace(/\/+$/, ''), normalOther])
}

export const keyDestinationChanged = (before: KeyDestination, after: KeyDestination) => destinationText(before) !== destinationText(after)
