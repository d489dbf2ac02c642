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
import { englishEntries } from '@ui/i18n/en/index'
import { type CountedText, countedBy, formsOf } from '@shared/plural'
import { AFFINITY_MESSAGES } from '@shared/messages/affinity'
import { CHANNEL_MESSAGES } from '@shared/messages/channels'
import { RELAY_MESSAGES } from '@shared/messages/relay'

const root = resolve(import.meta.dir, '..', '..')
const chinese = /[\u4e00-\u9fff]/
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort().join(',')
const entries = Object.entries(MESSAGE_GROUPS).flatMap(([group, table]) =>
	Object.entries(table as MessageEntries).map(([name, [zh, text]]) => ({ id: `${group}.${name}`, zh, text, forms: formsOf(text) })))
const counted = entries.filter(({ text }) => typeof text !== 'string')

describe('the message catalogue', () => {
	test('words every message in Chinese and in English, with the same placeholders', () => {
		expect(entries.length).toBeGreaterThan(150)
		expect(entries.filter(({ zh }) => !chinese.test(zh)).map(({ id }) => id)).toEqual([])
		expect(entries.filter(({ forms }) => forms.some((english) => !english.trim() || chinese.test(english))).map(({ id }) => id)).toEqual([])
		expect(entries.filter(({ zh, forms }) => forms.some((english) => placeholders(zh) !== placeholders(english))).map(({ id }) => id)).toEqual([])
	})

	test('gives one English text to a Chinese text used in several groups', () => {
		const english = new Map<string, Set<string>>()
		for (const { zh, text } of entries) english.set(zh, (english.get(zh) ?? new Set()).add(JSON.stringify(text)))
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
		const same = (one: CountedText | undefined, other: CountedText) => JSON.stringify(one) === JSON.stringify(other)
		const differing = Object.values(ADMIN_ACTION_ENTRIES).filter(([zh, english]) => !same(englishEntries[zh], english)).map(([zh]) => zh)
		expect(differing).toEqual([])
	})

	test('gives a counted message the console also shows the same plural forms as its dictionary', () => {
		const same = (one: CountedText, other: CountedText) => JSON.stringify(one) === JSON.stringify(other)
		// Where either side counts (other wordings of a shared text may differ in case and tone).
		const shared = entries.filter(({ zh, text }) => Object.hasOwn(englishEntries, zh) && (typeof text !== 'string' || typeof englishEntries[zh] !== 'string'))
		expect(shared.filter(({ text }) => typeof text !== 'string').length).toBeGreaterThanOrEqual(6)
		expect(shared.filter(({ zh, text }) => !same(englishEntries[zh]!, text)).map(({ id }) => id)).toEqual([])
	})

	test('writes no English plural as "(s)" (an http(s) address aside): a counted noun takes its form from the count', () => {
		expect(entries.filter(({ forms }) => forms.some((form) => /\b(?!http\(s\))\w+\(s\)/.test(form))).map(({ id }) => id)).toEqual([])
	})

	test('counts each plural message by placeholders of its text', () => {
		expect(counted.length).toBeGreaterThanOrEqual(19)
		expect(counted.filter(({ zh, text }) => countedBy(text).some((name) => !zh.includes(`{${name}}`))).map(({ id }) => id)).toEqual([])
	})

	test('words each counted message in the form its count asks for in English, and the Chinese unchanged', () => {
		const keys = (added: number, duplicates: number) => withValues(CHANNEL_MESSAGES.keysAdded, { added, duplicates })
		expect(inEnglish(keys(1, 0))).toBe('1 key added, 0 duplicates left out')
		expect(inEnglish(keys(2, 1))).toBe('2 keys added, 1 duplicate left out')
		expect(inEnglish(keys(1, 2))).toBe('1 key added, 2 duplicates left out')
		expect(renderMessage('zh', keys(1, 1))).toBe('已添加 1 个密钥，忽略 1 个重复的密钥')
		expect(inEnglish(withValues(CHANNEL_MESSAGES.duplicateKeysLeftOut, { count: 1 }))).toBe('1 duplicate key left out')
		expect(inEnglish(withValues(CHANNEL_MESSAGES.duplicateKeysLeftOut, { count: 2 }))).toBe('2 duplicate keys left out')
		expect(renderMessage('zh', withValues(CHANNEL_MESSAGES.duplicateKeysLeftOut, { count: 1 }))).toBe('已忽略 1 个重复的密钥')
		expect(inEnglish(withValues(AFFINITY_MESSAGES.purged, { count: 1 }))).toBe('1 session purged')
		expect(inEnglish(withValues(RELAY_MESSAGES.rpmExceeded, { level: 'this user', limit: 1, seconds: 30 }))).toBe('this user allows at most 1 request a minute; try again in 30 s')
		expect(inEnglish(withValues(RELAY_MESSAGES.rpmExceeded, { level: 'this user', limit: 2, seconds: 30 }))).toBe('this user allows at most 2 requests a minute; try again in 30 s')
		// A count that is not a number (a value not filled in) takes the other form.
		expect(inEnglish({ text: CHANNEL_MESSAGES.duplicateKeysLeftOut, values: {} })).toBe('{count} duplicate keys left out')
	})

	test('words each counted admin action and log line by its count, in English only', () => {
		const action = (name: keyof typeof ADMIN_ACTION_ENTRIES, count: number) => renderMessage('en', { text: ADMIN_ACTION_ENTRIES[name][0], values: { count, tag: 'vip', fields: 'weight', name: 'gift', quota: 5, target: '#1', before: 'yesterday' } })
		expect(action('channel.tag_edit', 1)).toBe('Edited the 1 channel of tag vip: weight')
		expect(action('channel.tag_edit', 2)).toBe('Edited the 2 channels of tag vip: weight')
		expect(action('channel.fix', 1)).toBe('Rebuilt the abilities of 1 channel')
		expect(action('redemption.create', 1)).toBe('Created 1 redemption code gift (quota 5): #1')
		expect(action('log.cleanup', 1)).toBe('Deleted 1 log entry from before yesterday')
		expect(action('log.cleanup', 3)).toBe('Deleted 3 log entries from before yesterday')
		expect(renderMessage('zh', { text: ADMIN_ACTION_ENTRIES['channel.tag_enable'][0], values: { count: 1, tag: 'vip' } })).toBe('启用标签 vip 的 1 个渠道')
		expect(logLine('top_up.online', { amount: 1, quota: 500, method: 'stripe', trade: 'T1' }).content).toBe('online top-up of 1 unit (500 quota) via stripe, trade T1')
		expect(logLine('top_up.online', { amount: 2, quota: 1000, method: 'stripe', trade: 'T2' }).content).toBe('online top-up of 2 units (1000 quota) via stripe, trade T2')
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
