/**
 * Request and token rate limits, checked before anything is held.
 *
 * Call limits at every level: requests a minute (`rpm`), tokens a minute (`tpm`, counting the
 * tokens calls were billed for once settled, never estimates) and requests a day (`rpd`, a
 * window of 24 hours from the first call in it). They are set on a token (its own calls), on a
 * user (all their calls), per group (`GroupRateLimits`: each user's calls in that group, where the
 * user sets none of their own) and per model (`ModelRateLimits`: each user's calls of that model).
 * The most specific setting of a subject applies (a user's own limit over their group's), and
 * every applicable limit must pass: a call is refused with 429 and `Retry-After` (the seconds
 * until the window that refused it ends) at the first one it would pass. A refused call still
 * counts toward the request limits it was checked against. Calls in flight at once are limited
 * the same way (concurrency-limits.ts). 0, or no setting, sets no limit.
 *
 * And the request limits per user new-api's operators know: with `ModelRequestRateLimitEnabled`,
 * a user makes at most `ModelRequestRateLimitCount` calls (0: no limit) and
 * `ModelRequestRateLimitSuccessCount` successful ones (0: no limit) in each window of
 * `ModelRequestRateLimitDurationMinutes`. `ModelRequestRateLimitGroup` (`{group: [total,
 * success]}`) replaces both for callers in a group: the token's group when it has one, else the
 * user's. A call counts as successful once it is answered (a whole answer, a stream that
 * started, a task the upstream took); the success limit is read before the call and counted
 * after it, so calls running at the same moment may together pass it by the number in flight.
 *
 * Every call an authenticated caller makes is counted, refused ones included: relayed calls
 * (respond.ts), `/mj` and `/suno` submits (tasks/routes.ts) and the free token counts
 * (`/v1/messages/count_tokens`, `/v1/responses/input_tokens`); model limits apply where the model
 * is known (relayed calls).
 *
 * The counters are the app's rate limiter: in Redis when `REDIS_URL` is set, so every node shares
 * them, in this node's memory otherwise or while Redis is unreachable (each node then counts its
 * own calls). Each window starts at the subject's first call in it.
 */
import { nested, withValues, type ServerMessage } from '@shared/messages'
import { RELAY_MESSAGES } from '@shared/messages/relay'
import type { RateLimitLevel } from '@shared/rate-limit'
import type { OptionStore } from '@/db/stores/options'
import type { RateLimiter, WindowCount } from '@/lib/rate-limiter'
import { wordedRelayError } from '../errors'
import type { CallLimits, RelayCaller } from '../caller'

const SECONDS_PER_MINUTE = 60
const SECONDS_PER_DAY = 24 * 60 * 60

export interface RequestLimits {
	/**
	 * Counts the call; throws a 429 RelayError when the caller is over a limit. Answers what to call
	 * once the call has succeeded, when successes are counted. `model`: the model asked for, when known.
	 */
	admit(caller: RelayCaller, model?: string): Promise<(() => void) | undefined>
	/** Counts the tokens a settled call was billed for against the token-a-minute limits that apply. */
	settled(caller: RelayCaller, model: string, tokens: number): void
}

/** One counted subject and the limits that apply to it, with the words that name it in a refusal. */
export interface LimitSubject {
	key: string
	limits: CallLimits
	/** Names the subject of each kind of limit: a user's own limit, or their group's. */
	level: (kind: keyof CallLimits) => ServerMessage
}

const userLevel = (caller: RelayCaller, group: string, groupLimits: RateLimitLevel | undefined) => (kind: keyof CallLimits): ServerMessage =>
	caller.user.limits[kind] > 0 || !groupLimits?.[kind] ? RELAY_MESSAGES.limitLevelUser : withValues(RELAY_MESSAGES.limitLevelGroup, { group })

/**
 * The subjects a call is counted for: its token, its user (their own limits, each one absent
 * taken from their group's) and its user's calls of the model. Only subjects with some limit;
 * none at all for most calls, at the cost of a few property reads.
 */
export function limitSubjects(options: OptionStore, caller: RelayCaller, model: string | undefined): LimitSubject[] {
	const subjects: LimitSubject[] = []
	const { token, user } = caller
	if (token.id > 0 && hasAny(token.limits)) subjects.push({ key: `t:${token.id}`, limits: token.limits, level: () => RELAY_MESSAGES.limitLevelToken })
	const group = token.group || user.group
	const groupLimits = options.get('GroupRateLimits')
	const ofGroup = Object.hasOwn(groupLimits, group) ? groupLimits[group] : undefined
	const own = user.limits
	const userLimits = ofGroup
		? { rpm: own.rpm || (ofGroup.rpm ?? 0), tpm: own.tpm || (ofGroup.tpm ?? 0), rpd: own.rpd || (ofGroup.rpd ?? 0), concurrency: own.concurrency || (ofGroup.concurrency ?? 0) }
		: own
	if (hasAny(userLimits)) subjects.push({ key: `u:${user.id}`, limits: userLimits, level: userLevel(caller, group, ofGroup) })
	if (model !== undefined) {
		const modelLimits = options.get('ModelRateLimits')
		const ofModel = Object.hasOwn(modelLimits, model) ? modelLimits[model] : undefined
		if (ofModel) {
			const limits = { rpm: ofModel.rpm ?? 0, tpm: ofModel.tpm ?? 0, rpd: ofModel.rpd ?? 0, concurrency: ofModel.concurrency ?? 0 }
			if (hasAny(limits)) subjects.push({ key: `m:${user.id}:${model}`, limits, level: () => withValues(RELAY_MESSAGES.limitLevelModel, { model }) })
		}
	}
	return subjects
}

const hasAny = (limits: CallLimits) => limits.rpm > 0 || limits.tpm > 0 || limits.rpd > 0 || limits.concurrency > 0

/** Worded for the playground in the console's language; API clients read the English. */
function tooMany(limit: number, counted: 'all' | 'successful', minutes: number) {
	const all = counted === 'all'
	const message = minutes === 1
		? withValues(all ? RELAY_MESSAGES.requestLimitMinute : RELAY_MESSAGES.successLimitMinute, { limit })
		: withValues(all ? RELAY_MESSAGES.requestLimitMinutes : RELAY_MESSAGES.successLimitMinutes, { limit, minutes })
	return wordedRelayError(429, message, 'rate_limit_error', 'rate_limit_exceeded')
}

const LIMIT_TEXTS = { rpm: RELAY_MESSAGES.rpmExceeded, tpm: RELAY_MESSAGES.tpmExceeded, rpd: RELAY_MESSAGES.rpdExceeded } as const

function overLimit(subject: LimitSubject, kind: 'rpm' | 'tpm' | 'rpd', limit: number, resetInSeconds: number, windowSeconds: number) {
	const seconds = Math.max(1, Math.min(windowSeconds, resetInSeconds || windowSeconds))
	const error = wordedRelayError(429, withValues(LIMIT_TEXTS[kind], { level: nested(subject.level(kind)), limit, seconds }), 'rate_limit_error', 'rate_limit_exceeded')
	error.retryAfterSeconds = seconds
	return error
}

/** A limiter without `add` (a test double that lets everything through) refuses nothing here. */
async function addTo(limiter: RateLimiter, bucket: string, amount: number, windowSeconds: number): Promise<WindowCount> {
	return limiter.add ? limiter.add(bucket, amount, windowSeconds) : { count: 0, resetInSeconds: windowSeconds }
}

export function createRequestLimits(options: OptionStore, limiter: RateLimiter): RequestLimits {
	/** new-api's ModelRequestRateLimit*: answers what counts a success, when successes are counted. */
	async function perUserRequests(caller: RelayCaller) {
		if (!options.get('ModelRequestRateLimitEnabled')) return undefined
		const minutes = options.get('ModelRequestRateLimitDurationMinutes')
		const windowSeconds = minutes * SECONDS_PER_MINUTE
		const group = caller.token.group || caller.user.group
		const [total, success] = options.get('ModelRequestRateLimitGroup')[group]
			?? [options.get('ModelRequestRateLimitCount'), options.get('ModelRequestRateLimitSuccessCount')]
		// The window's length is part of the bucket, so a changed duration starts fresh counters.
		const bucket = (kind: string) => `model-request:${kind}:${minutes}:${caller.user.id}`
		if (total > 0 && !await limiter.hit(bucket('total'), total, windowSeconds)) throw tooMany(total, 'all', minutes)
		if (success <= 0) return undefined
		const successes = bucket('success')
		// A limiter that cannot read a count (a test double) never refuses on successes.
		if ((await limiter.count?.(successes) ?? 0) >= success) throw tooMany(success, 'successful', minutes)
		return () => {
			void Promise.resolve(limiter.hit(successes, success, windowSeconds)).catch(() => {})
		}
	}

	/** Counts the call for each subject's request limits and checks its token limits. */
	async function callLimits(subjects: readonly LimitSubject[]) {
		for (const subject of subjects) {
			const { rpm, tpm, rpd } = subject.limits
			if (rpm > 0) {
				const { count, resetInSeconds } = await addTo(limiter, `rpm:${subject.key}`, 1, SECONDS_PER_MINUTE)
				if (count > rpm) throw overLimit(subject, 'rpm', rpm, resetInSeconds, SECONDS_PER_MINUTE)
			}
			if (rpd > 0) {
				const { count, resetInSeconds } = await addTo(limiter, `rpd:${subject.key}`, 1, SECONDS_PER_DAY)
				if (count > rpd) throw overLimit(subject, 'rpd', rpd, resetInSeconds, SECONDS_PER_DAY)
			}
			if (tpm > 0) {
				const { count, resetInSeconds } = await addTo(limiter, `tpm:${subject.key}`, 0, SECONDS_PER_MINUTE)
				if (count >= tpm) throw overLimit(subject, 'tpm', tpm, resetInSeconds, SECONDS_PER_MINUTE)
			}
		}
	}

	return {
		async admit(caller, model) {
			const succeeded = await perUserRequests(caller)
			const subjects = limitSubjects(options, caller, model)
			if (subjects.length > 0) await callLimits(subjects)
			return succeeded
		},
		settled(caller, model, tokens) {
			if (tokens <= 0) return
			for (const subject of limitSubjects(options, caller, model)) {
				if (subject.limits.tpm <= 0) continue
				void Promise.resolve(addTo(limiter, `tpm:${subject.key}`, tokens, SECONDS_PER_MINUTE)).catch(() => {})
			}
		},
	}
}
