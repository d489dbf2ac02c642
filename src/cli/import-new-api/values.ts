/**
 * A source row's values as Ferry stores them. The three databases new-api runs on hand the same
 * GORM column back differently: a bool is 0/1 (SQLite, MySQL) or true/false (Postgres), an int8 a
 * number or a string, `deleted_at` a text (SQLite) or a Date, a JSON column a text or an object.
 * A column an older version does not have reads as the fallback.
 */
import type { SourceRow } from './source'
import { MAX_ROW_ID } from '@shared/api-constants'

const MILLISECONDS_PER_SECOND = 1000
/** Unix times above this are in milliseconds (1e11 seconds is the year 5138). */
const MILLISECOND_TIMES_FROM = 1e11

export function integer(row: SourceRow, column: string, fallback = 0): number {
	const value = row[column]
	if (value === null || value === undefined || value === '') return fallback
	const number = typeof value === 'bigint' ? Number(value) : Number(value)
	return Number.isFinite(number) ? Math.trunc(number) : fallback
}

export function decimal(row: SourceRow, column: string, fallback = 0): number {
	const number = Number(row[column] ?? fallback)
	return Number.isFinite(number) ? number : fallback
}

export function text(row: SourceRow, column: string, fallback = ''): string {
	const value = row[column]
	if (value === null || value === undefined) return fallback
	if (value instanceof Uint8Array) return new TextDecoder().decode(value)
	if (typeof value === 'object') return JSON.stringify(value)
	return String(value)
}

export function flag(row: SourceRow, column: string): boolean {
	const value = row[column]
	if (typeof value === 'boolean') return value
	if (typeof value === 'number' || typeof value === 'bigint') return Number(value) !== 0
	if (typeof value === 'string') return ['1', 't', 'true', 'y', 'yes'].includes(value.trim().toLowerCase())
	return false
}

/** Unix seconds for a time column that may hold seconds or milliseconds. */
export function unixSeconds(row: SourceRow, column: string, fallback = 0): number {
	const value = integer(row, column, fallback)
	return Math.abs(value) >= MILLISECOND_TIMES_FROM ? Math.floor(value / MILLISECONDS_PER_SECOND) : value
}

/**
 * GORM's soft-delete column as unix seconds, or null when the row is live. SQLite holds a text such
 * as `2024-05-01 10:00:00.123456789+08:00`; one that cannot be read still means deleted (`now`).
 */
export function deletedAt(row: SourceRow, now: number): number | null {
	const value = row.deleted_at
	if (value === null || value === undefined || value === '') return null
	if (value instanceof Date) return Math.floor(value.getTime() / MILLISECONDS_PER_SECOND)
	if (typeof value === 'number' || typeof value === 'bigint') return unixSeconds(row, 'deleted_at')
	const normalized = String(value).trim().replace(' ', 'T').replace(/(\.\d{3})\d+/, '$1').replace(/ ?([+-]\d\d:?\d\d|Z)$/, '$1')
	const time = Date.parse(normalized)
	return Number.isFinite(time) ? Math.floor(time / MILLISECONDS_PER_SECOND) : now
}

/** JSON-object text as it was written (trimmed), or '' — `invalid` when it was something else. */
export function jsonObjectText(value: string): { text: string; invalid: boolean; parsed: Record<string, unknown> } {
	const trimmed = value.trim()
	if (!trimmed) return { text: '', invalid: false, parsed: {} }
	try {
		const parsed: unknown = JSON.parse(trimmed)
		if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return { text: trimmed, invalid: false, parsed: parsed as Record<string, unknown> }
	} catch {}
	return { text: '', invalid: true, parsed: {} }
}

const snakeCase = (property: string) => property.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)

/**
 * Why a mapped row cannot be stored as it is, or undefined: an id above MAX_ROW_ID, or a number
 * beyond what both JavaScript and Postgres' `bigint` hold exactly (2^53). The source's bigint
 * columns can hold such numbers; Ferry would store them wrongly or the write would fail.
 */
export function outOfRange(row: object): string | undefined {
	for (const [property, value] of Object.entries(row)) {
		if (typeof value !== 'number') continue
		if (property === 'id' && value > MAX_ROW_ID) return `id above ${MAX_ROW_ID}, the largest Ferry keeps`
		if (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value))) return `a number too large to keep exactly (${snakeCase(property)})`
	}
	return undefined
}
