/** Price texts of the pricing page (docs/specification/pricing.md#the-pricing-page): USD, per million or per thousand tokens. */
import { completionPricePerMillion, pricePerCall, promptPricePerMillion } from '@shared/pricing-constants'
import type { PricingEntry } from '@shared/pricing'

export type TokenUnit = 'million' | 'thousand'

const TOKENS_PER_UNIT: Record<TokenUnit, number> = { million: 1_000_000, thousand: 1_000 }

/** Enough digits for a per-thousand price of a cheap model, without float noise (0.06000000000000001). */
const MAX_DIGITS = 6

/** `$7.5`, `$30`, `$0.000075`: trailing zeros dropped. */
function formatUsd(amount: number): string {
	return `$${Number(amount.toFixed(MAX_DIGITS))}`
}

/** A USD amount in yuan at the server's display rate (`USDExchangeRate`), e.g. `¥54.75`. */
function formatCny(amount: number, usdExchangeRate: number): string {
	return `¥${Number((amount * usdExchangeRate).toFixed(MAX_DIGITS))}`
}

export type Currency = 'USD' | 'CNY'

export const formatPrice = (amount: number, currency: Currency, usdExchangeRate: number) =>
	currency === 'CNY' ? formatCny(amount, usdExchangeRate) : formatUsd(amount)

type TokenPrices = { prompt: number; completion: number }

/** USD for one unit of tokens (a million or a thousand) in a group of `groupRatio`. */
export function tokenPrices(entry: PricingEntry, groupRatio: number, unit: TokenUnit): TokenPrices {
	const scale = TOKENS_PER_UNIT[unit] / TOKENS_PER_UNIT.million
	return {
		prompt: promptPricePerMillion(entry, groupRatio) * scale,
		completion: completionPricePerMillion(entry, groupRatio) * scale,
	}
}

export const callPrice = (entry: PricingEntry, groupRatio: number) => pricePerCall(entry, groupRatio)

/**
 * The group chosen first: the signed-in user's own group, else `default` when the visitor may use
 * it, else the first usable group.
 */
export function initialGroup(usableGroups: Record<string, string>, userGroup?: string): string {
	const names = Object.keys(usableGroups)
	if (userGroup && names.includes(userGroup)) return userGroup
	return names.includes('default') ? 'default' : names[0] ?? ''
}
