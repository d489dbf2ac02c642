import { describe, expect, test } from 'bun:test'
import { readPaging, apiQuery } from '@ui/components/data-table/url-state'
import { abbreviateNumber, formatTimestamp, parseDateTime, quotaFromDisplay, renderQuota } from '@ui/lib/format'
import { CALL_COST_DIGITS, costFormula } from '@ui/features/logs/log-display'
import { MAX_QUOTA } from '@shared/quota-limit'
import { quotaAmountMessages, readQuotaAmount } from '@ui/features/users/quota-amount'

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

	test('shows an amount below a cent with two significant digits rather than rounded to a cent', () => {
		expect(renderQuota(8, currency)).toBe('$0.000016')
		expect(renderQuota(3, currency)).toBe('$0.000006')
		expect(renderQuota(4_999, currency)).toBe('$0.01')
		expect(renderQuota(1, currency)).toBe('$0.000002')
		expect(renderQuota(-8, currency)).toBe('-$0.000016')
		expect(renderQuota(8, currency, 6)).toBe('$0.000016')
		expect(renderQuota(1_234_567, currency, 6)).toBe('$2.469134')
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

describe('the log\'s billing formula', () => {
	const entry = (quota: number, other: Record<string, unknown>) => ({
		id: 1, created_at: 0, type: 2, content: '', username: 'alice', token_name: 't', model_name: 'gpt-4o-mini', quota,
		prompt_tokens: 100, completion_tokens: 20, use_time: 1, is_stream: false, user_id: 1, group: 'default', request_id: 'r', subscription_id: 0, other,
	})

	test('ends in exactly the charge on the row, after the product before rounding', () => {
		// 0.075 × (100 + 20 × 4) = 13.5 quota, billed 14 (half away from zero).
		const formula = costFormula(entry(14, { group_ratio: 1, model_ratio: 0.075, completion_ratio: 4 }), currency)!
		expect(formula.values).toMatchObject({ raw: '13.5', quota: 14, cost: renderQuota(14, currency, CALL_COST_DIGITS) })
		expect(formula.values.cost).toBe('$0.000028')
	})

	test('ends in the charge the balance could pay when it ran out, and in dollars whatever the display mode', () => {
		const formula = costFormula(entry(9, { group_ratio: 1, model_ratio: 0.075, completion_ratio: 4 }), units)!
		expect(formula.values).toMatchObject({ raw: '13.5', quota: 9, cost: '$0.000018' })
	})

	test('a fixed model price ends in the charge too', () => {
		const formula = costFormula(entry(20_000, { group_ratio: 1, model_price: 0.04 }), currency)!
		expect(formula.values).toMatchObject({ model_price: 0.04, quota: 20_000, cost: '$0.040000' })
	})
})

describe('amounts in the user editor', () => {
	const inDollars = { display_in_currency: true, quota_per_unit: 500_000 }
	const inUnits = { display_in_currency: false, quota_per_unit: 500_000 }

	test('take dollars with cents, and a signed change may deduct', () => {
		expect(readQuotaAmount('1.5', inDollars)).toEqual({ quota: 750_000 })
		expect(readQuotaAmount('-0.5', inDollars, { signed: true })).toEqual({ quota: -250_000 })
		expect(readQuotaAmount('-0.5', inDollars)).toEqual({ problem: { message: quotaAmountMessages.negative } })
		expect(readQuotaAmount('abc', inDollars)).toEqual({ problem: { message: quotaAmountMessages.notNumber } })
	})

	test('take whole units when the site shows quota, and nothing past the balance maximum', () => {
		expect(readQuotaAmount('-250000', inUnits, { signed: true })).toEqual({ quota: -250_000 })
		expect(readQuotaAmount('0.5', inUnits)).toEqual({ problem: { message: quotaAmountMessages.notInteger } })
		expect(readQuotaAmount(String(MAX_QUOTA + 1), inUnits)).toMatchObject({ problem: { message: quotaAmountMessages.tooLarge } })
	})
})
