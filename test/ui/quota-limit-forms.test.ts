/**
 * The console's quota fields refuse an amount above the balance maximum (@shared/quota-limit)
 * before sending it, in the console's language, as the server would refuse it.
 */
import { describe, expect, test } from 'bun:test'
import { MAX_QUOTA } from '@shared/quota-limit'
import { addEnglish, translate } from '@ui/i18n'
import { en } from '@ui/i18n/en/index'
import { readRedemptionFields } from '@ui/features/redemptions/redemption-form'
import { newTokenValues, readTokenFields } from '@ui/features/tokens/token-form'

addEnglish(en)

const inQuota = { display_in_currency: false, quota_per_unit: 500_000 }
const inDollars = { display_in_currency: true, quota_per_unit: 500_000 }

describe('quota fields at the balance maximum', () => {
	test('a token quota up to the maximum is accepted and one unit more is refused, in units and in dollars', () => {
		const values = { ...newTokenValues({ ...inQuota, default_use_auto_group: false }), name: 'work' }
		expect(readTokenFields({ ...values, quota: String(MAX_QUOTA) }, inQuota).value?.remain_quota).toBe(MAX_QUOTA)
		const refused = readTokenFields({ ...values, quota: String(MAX_QUOTA + 1) }, inQuota).problem!
		expect(translate('zh', refused.message, refused.values)).toBe('额度不能超过 1000000B')
		const dollars = readTokenFields({ ...values, quota: String(MAX_QUOTA / 500_000 + 1) }, inDollars).problem!
		expect(translate('en', dollars.message, dollars.values)).toBe('The quota cannot exceed $2000000000.00')
	})

	test('a redemption code above the maximum is refused before it is sent', () => {
		expect(readRedemptionFields({ name: 'gift', quota: String(MAX_QUOTA), count: '1' }, inQuota, true).value?.quota).toBe(MAX_QUOTA)
		const refused = readRedemptionFields({ name: 'gift', quota: String(MAX_QUOTA + 1), count: '1' }, inQuota, true).problem!
		expect(translate('en', refused.message, refused.values)).toBe('The quota cannot exceed 1000000B')
	})
})
