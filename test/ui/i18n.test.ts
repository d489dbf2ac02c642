/**
 * The zh/en dictionary (docs/specification/console.md#languages-and-themes): every Chinese source string the console shows has an English
 * entry, the per-feature dictionaries agree where they share a key, translations keep the
 * placeholders of their key, and each page loads the dictionaries that hold every text it shows.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { Glob } from 'bun'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { en, englishEntries } from '@ui/i18n/en/index'
import { common } from '@ui/i18n/en/common'
import { englishDictionaries, type DictionaryName } from '@ui/i18n/dictionaries'
import { addEnglish, translate } from '@ui/i18n'
import { type Dictionary, type DictionaryText, formsOf } from '@ui/i18n/plural'

const repositoryRoot = resolve(import.meta.dir, '..', '..')
const uiDirectory = resolve(repositoryRoot, 'ui')
const chinese = /[\u4e00-\u9fff]/

/** Chinese texts a file hands to t(), directly or as a header, label, title, message, placeholder, hint or description. */
function textsOf(text: string) {
	return [
		...text.matchAll(/\bt\(\s*'((?:[^'\\]|\\.)*)'/g),
		...text.matchAll(/\b(?:header|label|title|message|placeholder|hint|description):\s*'((?:[^'\\]|\\.)*)'/g),
	].map((match) => match[1]!).filter((key) => chinese.test(key))
}

/**
 * Every Chinese string literal outside comments, in single quotes or as a JSX attribute in double
 * quotes: texts kept in constants or passed as props reach t() through a variable.
 */
function literalsOf(text: string) {
	const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
	return [
		...code.matchAll(/'((?:[^'\\\n]|\\.)*[\u4e00-\u9fff](?:[^'\\\n]|\\.)*)'/g),
		...code.matchAll(/"([^"\n]*[\u4e00-\u9fff][^"\n]*)"/g),
	].map((match) => match[1]!)
}

/** The ui/ files a file imports, statically and (when asked) with import(). */
function importsOf(path: string, withDynamic: boolean) {
	const text = readFileSync(join(repositoryRoot, path), 'utf8')
	const found: string[] = []
	const pattern = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm
	for (const match of text.matchAll(pattern)) {
		if (match[3] !== undefined && !withDynamic) continue
		const specifier = (match[1] ?? match[2] ?? match[3])!
		let target: string
		if (specifier.startsWith('@ui/')) target = join('ui', specifier.slice('@ui/'.length))
		else if (specifier.startsWith('.')) target = relative(repositoryRoot, resolve(repositoryRoot, dirname(path), specifier))
		else continue
		const file = [`${target}.ts`, `${target}.tsx`, join(target, 'index.ts'), join(target, 'index.tsx'), target].find((candidate) => /\.tsx?$/.test(candidate) && existsSync(join(repositoryRoot, candidate)))
		if (file && !file.startsWith('ui/i18n/')) found.push(file)
	}
	return found
}

function reachable(start: string, withDynamic: boolean, stopAt: Set<string> = new Set()) {
	const seen = new Set<string>()
	const pending = [start]
	while (pending.length > 0) {
		const path = pending.pop()!
		if (seen.has(path) || stopAt.has(path)) continue
		seen.add(path)
		pending.push(...importsOf(path, withDynamic))
	}
	return seen
}

async function sourceFiles() {
	const files: { path: string; text: string }[] = []
	for await (const path of new Glob('**/*.{ts,tsx}').scan(uiDirectory)) {
		if (path.startsWith('i18n/')) continue
		files.push({ path, text: await Bun.file(resolve(uiDirectory, path)).text() })
	}
	return files
}

describe('the English dictionary', () => {
	test('has an entry for every Chinese string the console passes to t() or names as a header, label or title', async () => {
		const missing: string[] = []
		for (const { path, text } of await sourceFiles()) {
			const literals = [
				...text.matchAll(/\bt\(\s*'((?:[^'\\]|\\.)*)'/g),
				...text.matchAll(/\b(?:header|label|title|message|placeholder|hint|description):\s*'((?:[^'\\]|\\.)*)'/g),
			].map((match) => match[1]!)
			for (const key of literals) if (chinese.test(key) && !(key in en)) missing.push(`${path}: ${key}`)
		}
		expect(missing).toEqual([])
	})

	test('gives one English text per key across the feature dictionaries', async () => {
		const texts = new Map<string, Set<string>>()
		for await (const path of new Glob('*.ts').scan(resolve(uiDirectory, 'i18n', 'en'))) {
			if (path === 'index.ts') continue
			const module = (await import(resolve(uiDirectory, 'i18n', 'en', path))) as Record<string, Dictionary>
			for (const dictionary of Object.values(module)) {
				for (const [key, value] of Object.entries(dictionary)) {
					if (!texts.has(key)) texts.set(key, new Set())
					texts.get(key)!.add(JSON.stringify(value))
				}
			}
		}
		const conflicts = [...texts].filter(([, values]) => values.size > 1).map(([key, values]) => `${key}: ${[...values].join(' | ')}`)
		expect(conflicts).toEqual([])
	})

	test('keeps every placeholder of the key in its translation, in each plural form', () => {
		const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort().join(',')
		const broken = Object.entries(englishEntries).filter(([key, value]) => formsOf(value).some((form) => names(key) !== names(form)))
		expect(broken).toEqual([])
	})

	test('counts each plural entry by one of its key\'s placeholders', () => {
		const plurals = Object.entries(englishEntries).filter((entry): entry is [string, Exclude<DictionaryText, string>] => typeof entry[1] !== 'string')
		expect(plurals.length).toBeGreaterThan(20)
		expect(plurals.filter(([key, text]) => !key.includes(`{${text.by}}`)).map(([key]) => key)).toEqual([])
	})

	test('writes no English plural as "(s)" (an http(s) address aside): a counted noun takes its form from the count', () => {
		const hedged = Object.entries(englishEntries).filter(([, value]) => formsOf(value).some((form) => /\b(?!http\(s\))\w+\(s\)/.test(form))).map(([key]) => key)
		expect(hedged).toEqual([])
	})

	test('takes the one form for a count of 1 and the other form for 0, 2, fractions and a missing count', () => {
		addEnglish(englishEntries)
		expect(translate('en', '共 {total} 条', { total: 1 })).toBe('1 item')
		expect(translate('en', '共 {total} 条', { total: 0 })).toBe('0 items')
		expect(translate('en', '共 {total} 条', { total: 2 })).toBe('2 items')
		expect(translate('en', '共 {total} 条', { total: '1' })).toBe('1 item')
		expect(translate('en', '每 {minutes} 分钟汇总一次，最近的调用直接取自使用日志', { minutes: 1.5 })).toStartWith('Summed up every 1.5 minutes;')
		expect(translate('en', '共 {total} 条')).toBe('{total} items')
		expect(translate('en', '已删除 {count} 个渠道', { count: 1 })).toBe('Deleted 1 channel')
		expect(translate('en', '{total} 个密钥：{enabled} 个启用，{auto} 个自动禁用，{manual} 个手动禁用', { total: 1, enabled: 1, auto: 0, manual: 0 }))
			.toBe('1 key: 1 enabled, 0 auto-disabled, 0 disabled by hand')
		expect(translate('zh', '共 {total} 条', { total: 1 })).toBe('共 1 条')
	})

	test('falls back to the Chinese text for a key it lacks, and fills placeholders in both languages', () => {
		expect(translate('en', '一句没有译文的话')).toBe('一句没有译文的话')
		expect(translate('en', '共 {total} 条', { total: 7 })).toBe('7 items')
		expect(translate('zh', '共 {total} 条', { total: 7 })).toBe('共 7 条')
	})
})

describe('the dictionaries a page loads', () => {
	beforeAll(() => addEnglish(englishEntries))

	// The shell: what the routes file and the browser entry import without import() (layouts, tables, kit).
	const shell = new Set([...reachable('ui/routes.tsx', false), ...reachable('ui/entry.client.tsx', false)])
	const routesText = readFileSync(join(uiDirectory, 'routes.tsx'), 'utf8')
	const pages = [...routesText.matchAll(/page\('([\w-]+)', [^\n]*?'([^']*)', \[([^\]]*)\], \(\) => import\('(@ui\/[^']+)'\)\)/g)].map((match) => ({
		id: match[1]!,
		title: match[2]!,
		dictionaries: [...match[3]!.matchAll(/'(\w+)'/g)].map((name) => name[1] as DictionaryName),
		module: join('ui', match[4]!.slice('@ui/'.length)),
	}))

	/** Texts passed to t() must be there; other literals only if some dictionary translates them. */
	function missingTexts(path: string, available: Dictionary) {
		const text = readFileSync(join(repositoryRoot, path), 'utf8')
		return [...textsOf(text), ...literalsOf(text).filter((key) => key in en)].filter((key) => !(key in available)).map((key) => `${path}: ${key}`)
	}

	test('the shell shows only texts of the common dictionary, which every page has', () => {
		// The routes file names each page's title, which the page's own dictionaries hold (checked below).
		const missing = [...shell].filter((path) => path !== 'ui/routes.tsx').flatMap((path) => missingTexts(path, common))
		expect(missing).toEqual([])
	})

	test('every page loads dictionaries that hold its title and each text its modules (lazy ones too) show', async () => {
		expect(pages.length).toBeGreaterThan(20)
		const loaded = Object.fromEntries(await Promise.all(Object.entries(englishDictionaries).map(async ([name, load]) => [name, await load()] as const))) as Record<DictionaryName, Dictionary>
		const missing: string[] = []
		for (const page of pages) {
			const available = { ...common, ...Object.assign({}, ...page.dictionaries.map((name) => loaded[name])) } as Dictionary
			if (!(page.title in available)) missing.push(`${page.id}: title ${page.title}`)
			for (const path of reachable([`${page.module}.tsx`, `${page.module}.ts`].find((candidate) => existsSync(join(repositoryRoot, candidate)))!, true, shell)) {
				missing.push(...missingTexts(path, available).map((text) => `${page.id}: ${text}`))
			}
		}
		expect([...new Set(missing)]).toEqual([])
	})
})

describe('the admin audit trail\'s texts', () => {
	test('every action the log page words has an English text with the same placeholders', async () => {
		const { ADMIN_ACTION_TEMPLATES, SECRET_OPTION_TEMPLATE } = await import('@ui/features/logs/admin-action')
		const { ADMIN_ACTIONS } = await import('@shared/admin-action-constants')
		expect(Object.keys(ADMIN_ACTION_TEMPLATES).sort()).toEqual([...ADMIN_ACTIONS].sort())
		const missing = [...Object.values(ADMIN_ACTION_TEMPLATES), SECRET_OPTION_TEMPLATE].filter((template) => !(template in en))
		expect(missing).toEqual([])
	})
})
