/** The console's preference cookies (language, theme, time zone): read by the server render, written by the browser. */

export function readCookie(cookieHeader: string | null | undefined, name: string): string | undefined {
	if (!cookieHeader) return undefined
	for (const part of cookieHeader.split(';')) {
		const separator = part.indexOf('=')
		if (separator <= 0 || part.slice(0, separator).trim() !== name) continue
		const value = part.slice(separator + 1).trim()
		try {
			return decodeURIComponent(value)
		} catch {
			return value
		}
	}
	return undefined
}

/** Kept a year, for the whole site. */
export function writeCookie(name: string, value: string) {
	document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=31536000; samesite=lax`
}
