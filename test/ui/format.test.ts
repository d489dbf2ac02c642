import { describe, expect, test } from 'bun:test'
import { readPaging, apiQuery } from '@ui/components/data-table/url-state'
import { abbreviateNumber, formatTimestamp, parseDateTime, quotaFromDisplay, renderQuota } from '@ui/lib/format'

const currency = { display_in_currency: true, quota_per_unit: 500_000 }
const units = { display_in_currency: false, quota_per_unit: 500_000 }

describe('number and quota display', () => {
	test('abbreviates large numbers at 10k, 1M and 1B', () => {
		expect(abbreviateNumber(9_999)).toBe('9999')
		expect(abbreviateNumber(10_000)).toBe('10k')
		expect(abbreviateNumber(12_345)).toBe('12.3k')
		expect(abbreviateNumber(1_000_000)).toBe('1M')
		expect(abbreviateNumber(2_500_000_000)).toBe('2.5B')
		expect(abbreviateNumber(-15_000)).toBe('-15k')
	})

	test('shows quota as dollars at 500000 per dollar when the server displays currency', () => {
		expect(renderQuota(500_000, currency)).toBe('$1.00')
		expect(renderQuota(1_234_567, currency)).toBe('$2.47')
		expect(renderQuota(0, currency)).toBe('$0.00')
	})

	test('shows a tiny non-zero charge as the smallest visible amount rather than zero', () => {
		expect(renderQuota(3, currency)).toBe('$0.01')
	})

	test('shows raw quota units, abbreviated, when the server does not display currency', () => {
		expect(renderQuota(1_234_567, units)).toBe('1.2M')
		expect(quotaFromDisplay(1.5, currency)).toBe(750_000)
		expect(quotaFromDisplay(1500, units)).toBe(1500)
	})

	test('formats unix seconds in the given zone and parses the same format back', () => {
		expect(formatTimestamp(0)).toBe('-')
		expect(formatTimestamp(1_700_000_000, 'UTC')).toBe('2023-11-14 22:13:20')
		expect(formatTimestamp(1_700_000_000, 'Asia/Shanghai')).toBe('2023-11-15 06:13:20')
		expect(Number.isNaN(parseDateTime('not a date'))).toBe(true)
	})
})

describe('table state in the URL', () => {
	test('reads page and page size, falling back to page 1 and 10 for missing or unknown values', () => {
		expect(readPaging('http://x/token?p=3&page_size=50')).toEqual({ page: 3, pageSize: 50 })
		expect(readPaging('http://x/token')).toEqual({ page: 1, pageSize: 10 })
		expect(readPaging('http://x/token?p=-2&page_size=7')).toEqual({ page: 1, pageSize: 10 })
	})

	test('builds the API query with the filters that are set', () => {
		expect(apiQuery({ page: 2, pageSize: 20 }, { keyword: 'abc', group: '', token: undefined })).toBe('p=2&page_size=20&keyword=abc')
	})
})
