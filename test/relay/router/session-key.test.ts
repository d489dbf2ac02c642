import { describe, expect, test } from 'bun:test'
import { sessionId } from '@/lib/session-affinity'
import { type AffinityRule, readSessionKey, SESSION_SOURCE, SESSION_VALUE_MAX_BYTES } from '@/relay/router/session-key'

const input = (headers: Record<string, string>, body: unknown, overrides: { userId?: number; model?: string; path?: string } = {}) =>
	({ userId: overrides.userId ?? 7, model: overrides.model ?? 'gpt-5', path: overrides.path ?? '/v1/responses', headers: new Headers(headers), body })

describe('reading the session a call belongs to', () => {
	test('the default sources are read in order: x-session-id, prompt_cache_key, Codex session_id, Claude metadata.user_id', () => {
		const all = input({ 'x-session-id': 'a', session_id: 'c' }, { prompt_cache_key: 'b', metadata: { user_id: 'd' } })
		expect(readSessionKey(all, [], true)).toEqual({ id: sessionId(7, 'gpt-5', 'a'), source: SESSION_SOURCE.header })
		expect(readSessionKey(input({ session_id: 'c' }, { prompt_cache_key: 'b' }), [], true)?.source).toBe(SESSION_SOURCE.promptCacheKey)
		expect(readSessionKey(input({ session_id: 'c' }, { metadata: { user_id: 'd' } }), [], true)?.source).toBe(SESSION_SOURCE.codexSession)
		expect(readSessionKey(input({}, { metadata: { user_id: 'd' } }), [], true)).toEqual({ id: sessionId(7, 'gpt-5', 'd'), source: SESSION_SOURCE.claudeUser })
	})

	test('a call that names no session has none, and empty or non-text values name none', () => {
		expect(readSessionKey(input({}, { model: 'x' }), [], true)).toBeUndefined()
		expect(readSessionKey(input({ 'x-session-id': '  ' }, { prompt_cache_key: { nested: 1 }, metadata: { user_id: ['a'] } }), [], true)).toBeUndefined()
		expect(readSessionKey(input({}, 'not an object'), [], true)).toBeUndefined()
	})

	test('the same value is another session for another user or another model, and the stored id never holds the value', () => {
		const mine = readSessionKey(input({ 'x-session-id': 'conversation-1' }, {}), [], true)!
		expect(readSessionKey(input({ 'x-session-id': 'conversation-1' }, {}, { userId: 8 }), [], true)!.id).not.toBe(mine.id)
		expect(readSessionKey(input({ 'x-session-id': 'conversation-1' }, {}, { model: 'gpt-5-mini' }), [], true)!.id).not.toBe(mine.id)
		expect(mine.id).not.toContain('conversation')
		expect(mine.id).toHaveLength(22)
	})

	test(`only the first ${SESSION_VALUE_MAX_BYTES} bytes of a value are read`, () => {
		const long = 'x'.repeat(SESSION_VALUE_MAX_BYTES)
		expect(readSessionKey(input({ 'x-session-id': `${long}tail-one` }, {}), [], true)).toEqual(readSessionKey(input({ 'x-session-id': `${long}tail-two` }, {}), [], true))
	})

	test('the super admin\'s rules come first, by model pattern and path, from a header or a body field', () => {
		const rules: AffinityRule[] = [
			{ model: 'claude-*', path: '/v1/messages', body: 'metadata.conversation' },
			{ model: 'gpt-*', header: 'x-thread' },
		]
		const claude = input({ 'x-session-id': 'default' }, { metadata: { conversation: 'c1' } }, { model: 'claude-sonnet-4-5', path: '/v1/messages' })
		expect(readSessionKey(claude, rules, true)).toEqual({ id: sessionId(7, 'claude-sonnet-4-5', 'c1'), source: SESSION_SOURCE.rule })
		const gpt = input({ 'x-thread': 't1', 'x-session-id': 'default' }, {}, { model: 'gpt-5' })
		expect(readSessionKey(gpt, rules, true)).toEqual({ id: sessionId(7, 'gpt-5', 't1'), source: SESSION_SOURCE.rule })
		// A rule that finds nothing leaves the default sources.
		const other = input({ 'x-session-id': 'default' }, {}, { model: 'gemini-2.5-pro' })
		expect(readSessionKey(other, rules, true)?.source).toBe(SESSION_SOURCE.header)
	})

	test('with the default sources turned off, only rules name sessions', () => {
		expect(readSessionKey(input({ 'x-session-id': 'a' }, { prompt_cache_key: 'b' }), [], false)).toBeUndefined()
		expect(readSessionKey(input({ 'x-thread': 't' }, {}), [{ header: 'x-thread' }], false)?.source).toBe(SESSION_SOURCE.rule)
	})

	test('a body path never reads through prototypes', () => {
		expect(readSessionKey(input({}, {}), [{ body: 'constructor.name' }], false)).toBeUndefined()
		expect(readSessionKey(input({}, { a: { toString: 'x' } }), [{ body: 'a.toString' }], false)?.source).toBe(SESSION_SOURCE.rule)
	})
})
