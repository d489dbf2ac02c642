import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react'
import { readCookie, writeCookie } from '@ui/lib/cookie'
import { readStorage, storageKeys, writeStorage } from '@ui/lib/storage'

export const themes = ['light', 'dark'] as const
export type Theme = (typeof themes)[number]
/** What a page is rendered with: a chosen theme, or `system` until the visitor chooses. */
export type PageTheme = Theme | 'system'

/** Like the language, the theme is mirrored into a cookie so the server renders the page the browser keeps. */
const themeCookie = 'theme'
const DARK_QUERY = '(prefers-color-scheme: dark)'

function parseTheme(value: string | null | undefined): Theme {
	return value === 'dark' ? 'dark' : 'light'
}

/** The visitor's chosen theme, or `system` when none was chosen (the page follows the system's setting). */
export function themeFromCookieHeader(cookie: string | null): PageTheme {
	const chosen = readCookie(cookie, themeCookie)
	return chosen === 'dark' || chosen === 'light' ? chosen : 'system'
}

/**
 * Runs in the document's head before the first paint when no theme was chosen: the server cannot
 * know the system's setting, so the page takes it here rather than flash light first.
 */
export const followSystemThemeScript = `try{if(matchMedia('${DARK_QUERY}').matches)document.documentElement.classList.add('dark')}catch(e){}`

type ThemeState = { theme: Theme; setTheme: (theme: Theme) => void }

const ThemeContext = createContext<ThemeState>({ theme: 'light', setTheme: () => {} })

function showTheme(theme: Theme) {
	document.documentElement.classList.toggle('dark', theme === 'dark')
}

export function ThemeProvider({ initialTheme, children }: { initialTheme: PageTheme; children: ReactNode }) {
	// The server's render (and so hydration) shows light while following the system; the effect corrects it.
	const [theme, setThemeState] = useState<Theme>(initialTheme === 'dark' ? 'dark' : 'light')
	const setTheme = useCallback((next: Theme) => {
		setThemeState(next)
		writeStorage(storageKeys.theme, next)
		showTheme(next)
		writeCookie(themeCookie, next)
	}, [])
	useEffect(() => {
		const stored = readStorage(storageKeys.theme)
		if (stored !== null) {
			if (parseTheme(stored) !== initialTheme) setTheme(parseTheme(stored))
			return
		}
		if (initialTheme !== 'system') return
		// Not chosen yet: follow the system, and its changes, until the visitor picks one.
		const query = window.matchMedia(DARK_QUERY)
		const follow = () => {
			if (readStorage(storageKeys.theme) !== null) return
			const system: Theme = query.matches ? 'dark' : 'light'
			setThemeState(system)
			showTheme(system)
		}
		follow()
		query.addEventListener('change', follow)
		return () => query.removeEventListener('change', follow)
	}, [initialTheme, setTheme])
	const value = useMemo(() => ({ theme, setTheme }), [theme, setTheme])
	return <ThemeContext value={value}>{children}</ThemeContext>
}

export function useTheme() {
	return useContext(ThemeContext)
}
