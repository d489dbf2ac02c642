/**
 * Tables keep their state in the URL (`?p=2&page_size=20&keyword=…`): loaders read it on the server
 * and in the browser, links and the back button work, and a reload shows the same rows. The chosen
 * page size is also remembered per table in localStorage and restored when the URL does not name one.
 */
import { useCallback, useEffect } from 'react'
import { useSearchParams } from 'react-router'
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from '@shared/api-constants'
import { readStorage, storageKeys, writeStorage } from '@ui/lib/storage'

export { PAGE_SIZE_OPTIONS }

export type Paging = { page: number; pageSize: number }

function positive(value: string | null, fallback: number) {
	const number = Number(value)
	return Number.isInteger(number) && number > 0 ? number : fallback
}

/** For loaders: page (from 1) and page size from the request URL. */
export function readPaging(url: URL | string): Paging {
	const search = new URL(url, 'http://console').searchParams
	const pageSize = positive(search.get('page_size'), DEFAULT_PAGE_SIZE)
	return {
		page: positive(search.get('p'), 1),
		pageSize: (PAGE_SIZE_OPTIONS as readonly number[]).includes(pageSize) ? pageSize : DEFAULT_PAGE_SIZE,
	}
}

/** The query string for an API list call: the page's own filters plus p and page_size. */
export function apiQuery(paging: Paging, filters: Record<string, string | number | boolean | undefined | null> = {}) {
	const query = new URLSearchParams()
	query.set('p', String(paging.page))
	query.set('page_size', String(paging.pageSize))
	for (const [key, value] of Object.entries(filters)) {
		if (value !== undefined && value !== null && value !== '') query.set(key, String(value))
	}
	return query.toString()
}

const pageSizeKey = (table: string) => `${storageKeys.pageSize}:${table}`

/** The URL state of one table, and setters that navigate (replacing history for filter edits). */
export function useTableUrlState(table: string) {
	const [searchParameters, setSearchParameters] = useSearchParams()
	const { page, pageSize } = readPaging(`http://console/?${searchParameters}`)

	useEffect(() => {
		if (searchParameters.has('page_size')) return
		const stored = positive(readStorage(pageSizeKey(table)), DEFAULT_PAGE_SIZE)
		if (stored !== DEFAULT_PAGE_SIZE && (PAGE_SIZE_OPTIONS as readonly number[]).includes(stored)) {
			setSearchParameters((previous) => {
				const next = new URLSearchParams(previous)
				next.set('page_size', String(stored))
				return next
			}, { replace: true })
		}
	}, [searchParameters, setSearchParameters, table])

	const update = useCallback((changes: Record<string, string | number | null | undefined>, options: { replace?: boolean } = {}) => {
		setSearchParameters((previous) => {
			const next = new URLSearchParams(previous)
			for (const [key, value] of Object.entries(changes)) {
				if (value === null || value === undefined || value === '') next.delete(key)
				else next.set(key, String(value))
			}
			return next
		}, options)
	}, [setSearchParameters])

	const setPage = useCallback((next: number) => update({ p: next > 1 ? next : null }), [update])
	const setPageSize = useCallback((next: number) => {
		writeStorage(pageSizeKey(table), String(next))
		update({ page_size: next, p: null })
	}, [table, update])
	/** Applies filters and goes back to the first page. */
	const setFilters = useCallback((filters: Record<string, string | number | null | undefined>) => update({ ...filters, p: null }), [update])

	return { page, pageSize, searchParameters, setPage, setPageSize, setFilters, update }
}
