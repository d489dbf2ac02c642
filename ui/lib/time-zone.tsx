import { createContext, type ReactNode, useContext, useEffect, useState } from 'react'
import { readCookie, writeCookie } from '@ui/lib/cookie'
import { formatTimestamp } from '@ui/lib/format'

/**
 * Times are shown in the viewer's zone. The browser keeps its zone in a cookie, so the server renders
 * in it; on a first visit the server's zone is used for rendering and hydration, then the page switches.
 */
const timeZoneCookie = 'tz'

export function timeZoneFromCookieHeader(cookie: string | null): string | undefined {
	const zone = readCookie(cookie, timeZoneCookie)
	if (!zone) return undefined
	try {
		new Intl.DateTimeFormat('en', { timeZone: zone })
		return zone
	} catch {
		return undefined
	}
}

export function serverTimeZone() {
	return Intl.DateTimeFormat().resolvedOptions().timeZone
}

const TimeZoneContext = createContext<string | undefined>(undefined)

export function TimeZoneProvider({ initialTimeZone, children }: { initialTimeZone: string; children: ReactNode }) {
	const [timeZone, setTimeZone] = useState(initialTimeZone)
	useEffect(() => {
		const local = Intl.DateTimeFormat().resolvedOptions().timeZone
		writeCookie(timeZoneCookie, local)
		if (local !== initialTimeZone) setTimeZone(local)
	}, [initialTimeZone])
	return <TimeZoneContext value={timeZone}>{children}</TimeZoneContext>
}

/** `formatTime(unixSeconds)` → `yyyy-MM-dd HH:mm:ss` in the viewer's zone, identical on server and client. */
export function useFormatTime() {
	const timeZone = useContext(TimeZoneContext)
	return (seconds: number) => formatTimestamp(seconds, timeZone)
}
