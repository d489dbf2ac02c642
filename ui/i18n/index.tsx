import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react'
import { acceptedLanguage } from '@shared/request-language'
import { englishDictionaries, type DictionaryName } from '@ui/i18n/dictionaries'
import { common } from '@ui/i18n/en/common'
import { chooseForm, type Dictionary } from '@ui/i18n/plural'
import { readCookie, writeCookie } from '@ui/lib/cookie'
import { readStorage, storageKeys, writeStorage } from '@ui/lib/storage'

export const languages = ['zh', 'en'] as const
export type Language = (typeof languages)[number]

/** The shell's texts, and each feature's once a page that shows it has loaded it (`loadDictionaries`). */
const english: Dictionary = { ...common }
const dictionaries: Record<Language, Dictionary> = { zh: {}, en: english }
const loaded = new Set<DictionaryName>()

/** Adds English texts (a feature's dictionary, or every one in tests). */
export function addEnglish(texts: Dictionary) {
	Object.assign(english, texts)
}

/** Resolves once the named features' English texts are in the dictionary (each is fetched once). */
export async function loadDictionaries(names: readonly DictionaryName[]) {
	const missing = names.filter((name) => !loaded.has(name))
	const texts = await Promise.all(missing.map((name) => englishDictionaries[name]()))
	for (const [index, name] of missing.entries()) {
		addEnglish(texts[index]!)
		loaded.add(name)
	}
}

/** The language cookie mirrors localStorage so that the server renders what the browser will hydrate. */
const languageCookie = 'language'

function parseLanguage(value: string | null | undefined): Language {
	return value === 'en' ? 'en' : 'zh'
}

/**
 * The language a page is rendered in: the visitor's choice (the cookie the switch writes), else the
 * first of zh and en the browser asks for, else zh. A first visit thus follows the browser until the
 * visitor chooses.
 */
export function languageOfRequest(headers: Headers): Language {
	const chosen = readCookie(headers.get('cookie'), languageCookie)
	if (chosen === 'zh' || chosen === 'en') return chosen
	return acceptedLanguage(headers.get('accept-language')) ?? 'zh'
}

export function htmlLanguage(language: Language) {
	return language === 'en' ? 'en' : 'zh-CN'
}

/**
 * Keys are the zh source strings; a key missing from a dictionary falls back to the zh text. An
 * entry with plural forms takes the one its count asks for (`ui/i18n/plural.ts`).
 */
export function translate(language: Language, key: string, values?: Record<string, string | number>) {
	const template = chooseForm(htmlLanguage(language), dictionaries[language][key] ?? key, values)
	if (!values) return template
	return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole))
}

type I18n = {
	language: Language
	setLanguage: (language: Language) => void
	t: (key: string, values?: Record<string, string | number>) => string
}

const I18nContext = createContext<I18n>({
	language: 'zh',
	setLanguage: () => {},
	t: (key, values) => translate('zh', key, values),
})

export function I18nProvider({ initialLanguage, children }: { initialLanguage: Language; children: ReactNode }) {
	const [language, setLanguageState] = useState(initialLanguage)
	const setLanguage = useCallback((next: Language) => {
		setLanguageState(next)
		writeStorage(storageKeys.language, next)
		document.documentElement.lang = htmlLanguage(next)
		writeCookie(languageCookie, next)
	}, [])
	useEffect(() => {
		const stored = readStorage(storageKeys.language)
		if (stored !== null && parseLanguage(stored) !== initialLanguage) setLanguage(parseLanguage(stored))
	}, [initialLanguage, setLanguage])
	const value = useMemo<I18n>(
		() => ({ language, setLanguage, t: (key, values) => translate(language, key, values) }),
		[language, setLanguage],
	)
	return <I18nContext value={value}>{children}</I18nContext>
}

export function useTranslation() {
	return useContext(I18nContext)
}
