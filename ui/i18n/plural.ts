/**
 * English texts that change with a number ("1 channel", "2 channels"). A dictionary entry may be a
 * `PluralText` instead of a string: one form per plural category that `Intl.PluralRules` gives for
 * the language (English has `one` and `other`), chosen by the value of the placeholder `by`. Each
 * form keeps every placeholder of its key. The zh source text needs no forms.
 */
export type PluralText = { readonly by: string; readonly one: string; readonly other: string }

/** What a dictionary holds for a zh key. */
export type DictionaryText = string | PluralText

export type Dictionary = Record<string, DictionaryText>

/** An entry whose form follows the number in the placeholder `by`. */
export function plural(by: string, forms: { one: string; other: string }): PluralText {
	return { by, ...forms }
}

const rules = new Map<string, Intl.PluralRules>()

function pluralRules(locale: string) {
	let found = rules.get(locale)
	if (!found) {
		found = new Intl.PluralRules(locale)
		rules.set(locale, found)
	}
	return found
}

/**
 * The form of `text` for these values: a string is its own form; a plural entry picks by its count
 * (`other` when the count is missing or not a number).
 */
export function chooseForm(locale: string, text: DictionaryText, values?: Record<string, string | number>): string {
	if (typeof text === 'string') return text
	const count = Number(values?.[text.by])
	if (!Number.isFinite(count)) return text.other
	return pluralRules(locale).select(count) === 'one' ? text.one : text.other
}

/** Every form of an entry (for checks over a whole dictionary). */
export function formsOf(text: DictionaryText): string[] {
	return typeof text === 'string' ? [text] : [text.one, text.other]
}
