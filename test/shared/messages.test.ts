/**
 * The server's message catalogue (issue 16): every message in both languages with the same
 * placeholders, worded in the language asked for, and the only way a sentence reaches a person
 * from `/api` or the log — a scan of the server's source refuses a sentence written in place.
 */
import { describe, expect, test } from 'bun:test'
import { Glob } from 'bun'
import { resolve } from 'node:path'
import { ADMIN_ACTIONS } from '@shared/admin-action-constants'
import { bilingual, inEnglish, MESSAGE_GROUPS, type MessageEntries, nested, renderMessage, withValues } from '@shared/messages'
import { ADMIN_ACTION_ENTRIES } from '@shared/messages/admin-actions'
import { CHANNEL_TOOL_MESSAGES } from '@shared/messages/channels'
import { logLine } from '@shared/messages/logs'
import { OPTION_MESSAGES } from '@shared/messages/options'
import { TOKEN_MESSAGES } from '@shared/messages/tokens'
import { en } from '@ui/i18n/en/index'

const root = resolve(import.meta.dir, '..', '..')
const chinese = /[\u4e00-\u9fff]/
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort().join(',')
const entries = Object.entries(MESSAGE_GROUPS).flatMap(([group, table]) =>
	Object.entries(table as MessageEntries).map(([name, [zh, english]]) => ({ id: `${group}.${name}`, zh, english })))

describe('the message catalogue', () => {
	test('words every message in Chinese and in English, with the same placeholders', () => {
		expect(entries.length).toBeGreaterThan(150)
		expect(entries.filter(({ zh }) => !chinese.test(zh)).map(({ id }) => id)).toEqual([])
		expect(entries.filter(({ english }) => !english.trim() || chinese.test(english)).map(({ id }) => id)).toEqual([])
		expect(entries.filter(({ zh, english }) => placeholders(zh) !== placeholders(english)).map(({ id }) => id)).toEqual([])
	})

	test('gives one English text to a Chinese text used in several groups', () => {
		const english = new Map<string, Set<string>>()
		for (const { zh, english: text } of entries) english.set(zh, (english.get(zh) ?? new Set()).add(text))
		expect([...english].filter(([, texts]) => texts.size > 1).map(([zh]) => zh)).toEqual([])
	})

	test('fills placeholders in the language asked for, nested messages and bilingual values included', () => {
		const refused = withValues(OPTION_MESSAGES.valueRefused, { key: 'RetryTimes', reason: nested(OPTION_MESSAGES.notNumber) })
		expect(renderMessage('zh', refused)).toBe('RetryTimes 的值无效：请输入数字')
		expect(renderMessage('en', refused)).toBe('RetryTimes please enter a number')
		const blocked = withValues(CHANNEL_TOOL_MESSAGES.outboundBlocked, { target: 'http://10.0.0.1', reason: { zh: '私有网络', en: 'a private network' } })
		expect(renderMessage('zh', blocked)).toBe('到 http://10.0.0.1 的请求被拒绝：私有网络')
		expect(inEnglish(blocked)).toBe('outbound request to http://10.0.0.1 refused: a private network')
		expect(bilingual(TOKEN_MESSAGES.notFound)).toEqual({ zh: '令牌不存在', en: 'token not found' })
	})

	test('shows a text it does not know as it is (an old stored line)', () => {
		expect(renderMessage('zh', 'administrator root changed the quota from 0 to 5')).toBe('administrator root changed the quota from 0 to 5')
	})

	test('stores a log line with its English content and the code to word it again', () => {
		expect(logLine('redemption.redeemed', { id: 3, name: 'gift', quota: 500 })).toEqual({
			content: 'redeemed code #3 (gift) for 500 quota',
			other: { log_line: { code: 'redemption.redeemed', values: { id: 3, name: 'gift', quota: 500 } } },
		})
	})

	test('words every admin action, as the console\'s dictionary does', () => {
		expect(ADMIN_ACTIONS.filter((action) => !Object.hasOwn(ADMIN_ACTION_ENTRIES, action))).toEqual([])
		const differing = Object.values(ADMIN_ACTION_ENTRIES).filter(([zh, english]) => en[zh] !== english).map(([zh]) => zh)
		expect(differing).toEqual([])
	})
})

/** Server source whose sentences reach a person through `/api` or the log list. */
const SCANNED = ['src/api/**/*.ts', 'src/auth/**/*.ts', 'src/db/stores/options.ts', 'src/billing/*.ts', 'src/lib/mailer.ts', 'src/shared/*.ts']

/** A string or template literal with two Latin words in a row: a sentence, not a key or a code. */
const SENTENCE = String.raw`(['\x60])(?=[^'\x60\n]*[A-Za-z]{2,} [A-Za-z]{2,})[^'\x60\n]*\1`
const SENTENCE_USES = [
	// An error or answer of /api with a sentence in place of a catalogue message.
	{ kind: 'refusal', pattern: new RegExp(String.raw`\b(?:refused|badRequest|forbidden|notFound|ApiError|OptionRefusedError|OptionValueError|MailerError|BalanceError)\(\s*` + SENTENCE) },
	{ kind: 'answer', pattern: new RegExp(String.raw`\bok\([^()\n]*,\s*` + SENTENCE) },
	// A schema's message: the envelope answers it to the caller.
	{ kind: 'schema message', pattern: new RegExp(String.raw`(?:\berror:|\bmessage:|\.(?:min|max|int|refine|positive|nonnegative|regex|length)\([^()\n]*,)\s*` + SENTENCE) },
	// A log line's content: the log list shows it.
	{ kind: 'log content', pattern: new RegExp(String.raw`\bcontent:\s*` + SENTENCE) },
]

describe('the server source', () => {
	test('words no message of /api and no log line in place: each goes through the catalogue', async () => {
		const found: string[] = []
		for (const pattern of SCANNED) {
			for await (const path of new Glob(pattern).scan(root)) {
				const lines = (await Bun.file(resolve(root, path)).text()).split('\n')
				lines.forEach((line, index) => {
					if (/^\s*(\*|\/\/|\/\*)/.test(line)) return
					for (const { kind, pattern: use } of SENTENCE_USES) if (use.test(line)) found.push(`${path}:${index + 1} (${kind}): ${line.trim()}`)
				})
			}
		}
		expect(found).toEqual([])
	})

	test('the scan recognises each kind of sentence written in place', () => {
		const samples = [
			`throw refused('the token is gone')`,
			'throw badRequest(`at most ${max} items`)',
			`return ok(undefined, 'model ratios have been reset')`,
			`name: z.string().min(1, 'name is required'),`,
			`z.number({ error: 'must be a number' })`,
			`content: \`redeemed code #\${id} for \${quota} quota\`,`,
		]
		expect(samples.filter((sample) => !SENTENCE_USES.some(({ pattern }) => pattern.test(sample)))).toEqual([])
		expect(SENTENCE_USES.some(({ pattern }) => pattern.test(`throw refused(TOKEN_MESSAGES.notFound)`))).toBe(false)
	})
})
