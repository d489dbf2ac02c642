/**
 * The language an answer to the console is worded in (issue 16): `/api` and the playground relay.
 * The console says which it shows with `Accept-Language` on every call (the browser's and the
 * server render's alike); other callers may do the same, or carry the console's `language` cookie. A caller that names neither zh nor en
 * (a script, curl) is answered in English, as the API always answered it.
 */
import type { Language } from './messages/define'

/** The console's preference cookie (ui/i18n), read when no accepted language decides. */
const LANGUAGE_COOKIE = 'language'
export const DEFAULT_API_LANGUAGE: Language = 'en'

/** zh or en from a language tag (`zh-CN`, `en-US`, `zh`); undefined for any other. */
function languageOfTag(tag: string): Language | undefined {
	const primary = tag.trim().toLowerCase().split('-')[0]
	return primary === 'zh' || primary === 'en' ? primary : undefined
}

/** The best of zh and en an `Accept-Language` header asks for, by its q weights. */
export function acceptedLanguage(header: string | null): Language | undefined {
	if (!header) return undefined
	let best: { language: Language; weight: number } | undefined
	for (const part of header.split(',').slice(0, 32)) {
		const [tag = '', ...parameters] = part.split(';')
		const language = languageOfTag(tag)
		if (!language) continue
		const q = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith('q='))
		const weight = q ? Number(q.slice(2)) : 1
		if (!(weight > 0)) continue
		if (!best || weight > best.weight) best = { language, weight }
	}
	return best?.language
}

function cookieLanguage(cookieHeader: string | null): Language | undefined {
	for (const part of cookieHeader?.split(';') ?? []) {
		const [name, value] = part.split('=')
		if (name?.trim() === LANGUAGE_COOKIE) return languageOfTag(value ?? '')
	}
	return undefined
}

export function requestLanguage(request: Request): Language {
	return acceptedLanguage(request.headers.get('accept-language')) ?? cookieLanguage(request.headers.get('cookie')) ?? DEFAULT_API_LANGUAGE
}
