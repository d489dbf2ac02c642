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

/** The viewer's zone in a loader: the cookie on the server, the browser's own after that. */
export const viewerTimeZone = (request: Request) =>
	typeof document === 'undefined' ? timeZoneFromCookieHeader(request.headers.get('cookie')) : Intl.DateTimeFormat().resolvedOptions().timeZone

const SECONDS_PER_MINUTE = 60
const SECONDS_PER_HOUR = 3600

/** Midnight of `now`'s day in the time zone (the viewer's; the runtime's when unknown), in unix seconds. */
export function startOfDay(now: number, timeZone?: string): number {
	let parts: Intl.DateTimeFormatPart[]
	try {
		parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(now * 1000))
	} catch {
		parts = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(now * 1000))
	}
	const part = (type: string) => Number(parts.find((entry) => entry.type === type)?.value ?? 0)
	return now - (part('hour') * SECONDS_PER_HOUR + part('minute') * SECONDS_PER_MINUTE + part('second'))
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
