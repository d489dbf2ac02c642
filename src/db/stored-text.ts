/**
 * Text the databases can keep. Postgres refuses a NUL character in a text value outright (the
 * statement fails, and with it every row of a batched write), SQLite keeps it, and both drivers
 * write a lone UTF-16 surrogate as U+FFFD. So:
 * - a text from outside that is written (an upstream's error, which may quote a client's prompt)
 *   goes through `storableText` first: stored the same on both databases, never failing a statement;
 * - a lookup by a text a client chose (a task id in a path, a list of ids in a body) that no stored
 *   text can be finds nothing, on both databases, without asking Postgres a statement it would refuse.
 */
import { eq, inArray, type SQL, type SQLWrapper, sql } from 'drizzle-orm'

/** A condition no row meets. */
const NONE = sql`1 = 0`

/**
 * Whether a text can be a stored value. Checked at run time to be a string at all: a path segment
 * the router could not percent-decode comes as null (Elysia's), whatever its type says.
 */
export function isStorableText(text: string): boolean {
	return typeof text === 'string' && !text.includes('\u0000') && text.isWellFormed()
}

/** The text as a database keeps it: without NUL characters, a lone surrogate as U+FFFD. */
export function storableText(text: string): string {
	if (isStorableText(text)) return text
	return text.replaceAll('\u0000', '').toWellFormed()
}

/** The row with each of its text values made storable (the same object when none needed it). */
export function storableFields<Row extends object>(row: Row): Row {
	let copy: Record<string, unknown> | undefined
	for (const name in row) {
		const value: unknown = row[name]
		if (typeof value === 'string' && !isStorableText(value)) (copy ??= { ...row } as Record<string, unknown>)[name] = storableText(value)
	}
	return (copy ?? row) as Row
}

/** `column = text`, or a condition no row meets when no stored text can be `text`. */
export function equalsText(column: SQLWrapper, text: string): SQL {
	return isStorableText(text) ? eq(column, text) : NONE
}

/** `column IN (texts)`, leaving out the texts no stored text can be (none left: a condition no row meets). */
export function inTexts(column: SQLWrapper, texts: readonly string[]): SQL {
	const storable = texts.filter(isStorableText)
	return storable.length > 0 ? inArray(column, storable) : NONE
}
