/**
 * Which conversation a call belongs to, so that the router can keep it on the key whose prompt
 * cache is warm (affinity.ts). A session key is read from the request — by the super admin's rules
 * first, then, unless they are turned off, from the places clients put it, in this order:
 *
 * 1. the `x-session-id` header (any client that wants affinity may send it);
 * 2. OpenAI's `prompt_cache_key` (chat and Responses bodies; Codex sets it to its conversation);
 * 3. the `session_id` header Codex sends;
 * 4. Claude's `metadata.user_id` (Claude Code writes its session into it).
 *
 * A continued Responses call (`previous_response_id`) is handled apart: the kept response names
 * its own channel and key.
 *
 * The key is never kept or logged as sent: it is hashed with the caller's user id (so one user's
 * session can never name, or land on, another's) and the model (a provider caches prompts per model,
 * and an agent that asks a second model in one session — Claude Code's small model — must not move
 * its main conversation when that model lives on another channel), and at most
 * `SESSION_VALUE_MAX_BYTES` of it are read.
 */
import type { AffinityRule } from '@shared/routing'
import { sessionId } from '@/lib/session-affinity'

/** The longest session value read; the rest is ignored. */
export const SESSION_VALUE_MAX_BYTES = 256

export const SESSION_SOURCE = {
	header: 'header',
	promptCacheKey: 'prompt_cache_key',
	codexSession: 'session_id',
	claudeUser: 'metadata.user_id',
	rule: 'rule',
} as const
export type SessionSource = (typeof SESSION_SOURCE)[keyof typeof SESSION_SOURCE]

export type { AffinityRule }

/** What a session is read from: the request as the client sent it. */
export interface SessionInput {
	userId: number
	model: string
	path: string
	headers: Headers
	/** The client's JSON body as it sent it (Claude's, Gemini's, OpenAI's). */
	body: unknown
}

export interface SessionKey {
	/** The hash that names the session in the affinity store and the log. */
	id: string
	source: SessionSource
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A session value as text: strings and numbers only, at most the bound. */
function sessionText(value: unknown): string | undefined {
	const text = typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined
	if (!text) return undefined
	const bounded = Buffer.byteLength(text) > SESSION_VALUE_MAX_BYTES ? Buffer.from(text).subarray(0, SESSION_VALUE_MAX_BYTES).toString() : text
	return bounded.trim() || undefined
}

/** A field of the body by its dotted path (`a.b.c`), at most 16 levels. */
function fieldAt(body: unknown, path: string): unknown {
	let value = body
	for (const part of path.split('.', 16)) {
		if (!isObject(value)) return undefined
		value = Object.hasOwn(value, part) ? value[part] : undefined
	}
	return value
}

const patternCache = new Map<string, RegExp>()

/** Whether `model` matches a rule's model: an exact name, or a pattern where `*` is any run. */
export function modelMatches(pattern: string, model: string): boolean {
	if (!pattern.includes('*')) return pattern === model
	let expression = patternCache.get(pattern)
	if (!expression) {
		expression = new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`)
		if (patternCache.size > 1_000) patternCache.clear()
		patternCache.set(pattern, expression)
	}
	return expression.test(model)
}

function fromRules(rules: readonly AffinityRule[], input: SessionInput): string | undefined {
	for (const rule of rules) {
		if (rule.model && !modelMatches(rule.model, input.model)) continue
		if (rule.path && !input.path.startsWith(rule.path)) continue
		const value = rule.header ? input.headers.get(rule.header) : rule.body ? fieldAt(input.body, rule.body) : undefined
		const text = sessionText(value)
		if (text) return text
	}
	return undefined
}

function fromDefaults({ headers, body }: SessionInput): { value: string; source: SessionSource } | undefined {
	const candidates: [unknown, SessionSource][] = [
		[headers.get('x-session-id'), SESSION_SOURCE.header],
		[isObject(body) ? body.prompt_cache_key : undefined, SESSION_SOURCE.promptCacheKey],
		[headers.get('session_id'), SESSION_SOURCE.codexSession],
		[isObject(body) && isObject(body.metadata) ? body.metadata.user_id : undefined, SESSION_SOURCE.claudeUser],
	]
	for (const [value, source] of candidates) {
		const text = sessionText(value)
		if (text) return { value: text, source }
	}
	return undefined
}


/** The call's session, or undefined when it names none. */
export function readSessionKey(input: SessionInput, rules: readonly AffinityRule[], defaultSources: boolean): SessionKey | undefined {
	const ruled = rules.length > 0 ? fromRules(rules, input) : undefined
	if (ruled) return { id: sessionId(input.userId, input.model, ruled), source: SESSION_SOURCE.rule }
	const found = defaultSources ? fromDefaults(input) : undefined
	return found && { id: sessionId(input.userId, input.model, found.value), source: found.source }
}
