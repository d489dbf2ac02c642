import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react'
import { readCookie, writeCookie } from '@ui/lib/cookie'
import { readStorage, storageKeys, writeStorage } from '@ui/lib/storage'

export const themes = ['light', 'dark'] as const
export type Theme = (typeof themes)[number]

/** Like the language, the theme is mirrored into a cookie so the server renders the page the browser keeps. */
const themeCookie = 'theme'

function parseTheme(value: string | null | undefined): Theme {
	return value === 'dark' ? 'dark' : 'light'
}

export function themeFromCookieHeader(cookie: string | null): Theme {
	return parseTheme(readCookie(cookie, themeCookie))
}

type ThemeState = { theme: Theme; setTheme: (theme: Theme) => void }

const ThemeContext = createContext<ThemeState>({ theme: 'light', setTheme: () => {} })

export function ThemeProvider({ initialTheme, children }: { initialTheme: Theme; children: ReactNode }) {
	const [theme, setThemeState] = useState(initialTheme)
	const setTheme = useCallback((next: Theme) => {
		setThemeState(next)
		writeStorage(storageKeys.theme, next)
		document.documentElement.classList.toggle('dark', next === 'dark')
		writeCookie(themeCookie, next)
	}, [])
	useEffect(() => {
		const stored = readStorage(storageKeys.theme)
		if (stored !== null && parseTheme(stored) !== initialTheme) setTheme(parseTheme(stored))
	}, [initialTheme, setTheme])
	const value = useMemo(() => ({ theme, setTheme }), [theme, setTheme])
	return <ThemeContext value={value}>{children}</ThemeContext>
}

export function useTheme() {
	return useContext(ThemeContext)
}
