/**
 * What a Google upstream (Gemini, Vertex AI) says in its error answer beyond the message:
 * `{error: {code, message, status, details: [{"@type": "type.googleapis.com/google.rpc.…", …}]}}`.
 * Gemini-format clients read the details — Gemini CLI waits for a `RetryInfo`'s `retryDelay` and
 * tells a daily quota (`QuotaFailure`) from a minute's — so they travel on, but only what a client
 * may learn: these types, their documented fields, every string scrubbed as the message is
 * (messages.ts: the channel's keys, URLs, its host). Left out: `Help` (its links are URLs),
 * `DebugInfo`, `RequestInfo` and `ResourceInfo` (the upstream's internals), a violation's `subject`
 * and an `ErrorInfo`'s `consumer` (the channel's own Google project), and an `ErrorInfo` about an
 * API key (`API_KEY_*`: the channel's key, never the client's).
 */
import { DURATION, ERROR_DETAIL_TYPE_PREFIX as TYPE_PREFIX, type GoogleError, type GoogleErrorDetail, RETRY_INFO_TYPE } from '../formats/gemini/errors'
import { isObject } from '../formats/json'
import { scrubSecrets, type UpstreamIdentity } from './messages'

/** Bounds on what is copied: an error answer is at most 64 KiB, and only a few details make sense. */
const MOST_DETAILS = 8
const MOST_ENTRIES = 20
/** An ErrorInfo about the channel's API key, not about the call. */
const KEY_REASON = /^API_KEY_/
/** ErrorInfo metadata naming the channel's Google project. */
const PRIVATE_METADATA = new Set(['consumer', 'project', 'project_id', 'projectId'])

type Json = Record<string, unknown>
type Scrub = (text: string) => string

const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject).slice(0, MOST_ENTRIES) : [])

/** The string fields of `source` named in `fields`, scrubbed; others left out. */
function strings(source: Json, fields: readonly string[], scrub: Scrub): Json {
	const kept: Json = {}
	for (const field of fields) if (typeof source[field] === 'string') kept[field] = scrub(source[field])
	return kept
}

/** A `map<string, string>`, scrubbed, without the `omitted` keys. */
function stringMap(value: unknown, scrub: Scrub, omitted: ReadonlySet<string> = new Set()): Json | undefined {
	if (!isObject(value)) return undefined
	const kept: Json = {}
	for (const [key, text] of Object.entries(value).slice(0, MOST_ENTRIES)) if (typeof text === 'string' && !omitted.has(key)) kept[scrub(key)] = scrub(text)
	return Object.keys(kept).length > 0 ? kept : undefined
}

const withFields = (type: string, fields: Json): GoogleErrorDetail => ({ '@type': type, ...fields })

/** Each kept type, and how its fields are kept; undefined drops the detail. */
const KEPT: Record<string, (detail: Json, scrub: Scrub) => Json | undefined> = {
	RetryInfo: (detail) => (typeof detail.retryDelay === 'string' && DURATION.test(detail.retryDelay) ? { retryDelay: detail.retryDelay } : undefined),
	QuotaFailure: (detail, scrub) => ({
		violations: list(detail.violations).map((violation) => {
			const dimensions = stringMap(violation.quotaDimensions, scrub)
			return { ...strings(violation, ['description', 'quotaMetric', 'quotaId', 'quotaValue', 'futureQuotaValue'], scrub), ...(dimensions ? { quotaDimensions: dimensions } : {}) }
		}),
	}),
	ErrorInfo: (detail, scrub) => {
		if (typeof detail.reason === 'string' && KEY_REASON.test(detail.reason)) return undefined
		const metadata = stringMap(detail.metadata, scrub, PRIVATE_METADATA)
		return { ...strings(detail, ['reason', 'domain'], scrub), ...(metadata ? { metadata } : {}) }
	},
	BadRequest: (detail, scrub) => ({ fieldViolations: list(detail.fieldViolations).map((violation) => strings(violation, ['field', 'description', 'reason'], scrub)) }),
	PreconditionFailure: (detail, scrub) => ({ violations: list(detail.violations).map((violation) => strings(violation, ['type', 'description'], scrub)) }),
	LocalizedMessage: (detail, scrub) => strings(detail, ['locale', 'message'], scrub),
}

/**
 * The status name and the details a client may see of a Google-shaped error answer; undefined for
 * any other answer.
 */
export function googleErrorOf(text: string, channel: UpstreamIdentity): GoogleError | undefined {
	let parsed: unknown
	try {
		parsed = JSON.parse(text)
	} catch {
		return undefined
	}
	const error = isObject(parsed) ? parsed.error : undefined
	if (!isObject(error) || typeof error.status !== 'string' || !/^[A-Z_]{1,64}$/.test(error.status)) return undefined
	const scrub: Scrub = (value) => scrubSecrets(value, channel)
	const details: GoogleErrorDetail[] = []
	for (const detail of list(error.details)) {
		const type = detail['@type']
		if (typeof type !== 'string' || !type.startsWith(TYPE_PREFIX)) continue
		const keep = KEPT[type.slice(TYPE_PREFIX.length)]
		const fields = keep?.(detail, scrub)
		if (fields) details.push(withFields(type, fields))
		if (details.length === MOST_DETAILS) break
	}
	return { status: error.status, details }
}

/** The wait a `RetryInfo` asks for, as a `Retry-After` value in seconds (decimals kept); undefined without one. */
export function retryAfterOf(google: GoogleError | undefined): string | undefined {
	const delay = google?.details.find((detail) => detail['@type'] === RETRY_INFO_TYPE)?.retryDelay
	const match = typeof delay === 'string' ? DURATION.exec(delay) : null
	return match ? `${match[1]}${match[2] ?? ''}` : undefined
}
