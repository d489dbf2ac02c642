/**
 * English texts that change with a number ("1 channel", "2 channels"), for the server's message
 * catalogue and the console's dictionary alike. A text may be a `PluralText` instead of a string:
 * one form per plural category that `Intl.PluralRules` gives for the language (English has `one`
 * and `other`), chosen by the value of the placeholder `by`. A form may itself be a `PluralText`
 * when a text counts two things ("1 key added, 2 duplicates left out"). Each form keeps every
 * placeholder of its text. The zh source text needs no forms. Import-free, so every layer and the
 * console may use it.
 */
export type PluralText = { readonly by: string; readonly one: PluralForm; readonly other: PluralForm }
export type PluralForm = string | PluralText

/** A text that may have plural forms. */
export type CountedText = string | PluralText

/** A text whose form follows the number in the placeholder `by`. */
export function plural(by: string, forms: { one: PluralForm; other: PluralForm }): PluralText {
	return { by, one: forms.one, other: forms.other }
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
 * The form of `text` for these values: a string is its own form; a plural text picks by its count
 * (`other` when the count is missing or not a number), and again inside the form it picked.
 */
export function chooseForm(locale: string, text: CountedText, values?: Readonly<Record<string, unknown>>): string {
	if (typeof text === 'string') return text
	const count = Number(values?.[text.by])
	const form = Number.isFinite(count) && pluralRules(locale).select(count) === 'one' ? text.one : text.other
	return chooseForm(locale, form, values)
}

/** Every form of a text (for checks over a whole dictionary or catalogue). */
export function formsOf(text: CountedText): string[] {
	return typeof text === 'string' ? [text] : [...formsOf(text.one), ...formsOf(text.other)]
}

/** The form for "many" of everything counted: what a text reads as when no count is known. */
export function otherForm(text: CountedText): string {
	return typeof text === 'string' ? text : otherForm(text.other)
}

/** The placeholders the text counts by, outermost first. */
export function countedBy(text: CountedText): string[] {
	return typeof text === 'string' ? [] : [...new Set([text.by, ...countedBy(text.one), ...countedBy(text.other)])]
}
