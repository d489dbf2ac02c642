/**
 * The zh/en dictionary (seed 002 §2): every Chinese source string the console shows has an English
 * entry, the per-feature dictionaries agree where they share a key, and translations keep the
 * placeholders of their key.
 */
import { describe, expect, test } from 'bun:test'
import { Glob } from 'bun'
import { resolve } from 'node:path'
import { en } from '@ui/i18n/en/index'
import { translate } from '@ui/i18n'

const uiDirectory = resolve(import.meta.dir, '..', '..', 'ui')
const chinese = /[\u4e00-\u9fff]/

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
			const module = (await import(resolve(uiDirectory, 'i18n', 'en', path))) as Record<string, Record<string, string>>
			for (const dictionary of Object.values(module)) {
				for (const [key, value] of Object.entries(dictionary)) {
					if (!texts.has(key)) texts.set(key, new Set())
					texts.get(key)!.add(value)
				}
			}
		}
		const conflicts = [...texts].filter(([, values]) => values.size > 1).map(([key, values]) => `${key}: ${[...values].join(' | ')}`)
		expect(conflicts).toEqual([])
	})

	test('keeps every placeholder of the key in its translation', () => {
		const broken = Object.entries(en).filter(([key, value]) => {
			const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort().join(',')
			return names(key) !== names(value)
		})
		expect(broken).toEqual([])
	})

	test('falls back to the Chinese text for a key it lacks, and fills placeholders in both languages', () => {
		expect(translate('en', '一句没有译文的话')).toBe('一句没有译文的话')
		expect(translate('en', '共 {total} 条', { total: 7 })).toBe('7 items')
		expect(translate('zh', '共 {total} 条', { total: 7 })).toBe('共 7 条')
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
