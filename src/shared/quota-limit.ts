import { sourceTexts } from './messages/define'

/**
 * The largest amount of quota Ferry keeps in one place (docs/architecture.md#the-ledger): 10^15 quota, two billion
 * dollars at the default 500 000 quota per dollar.
 *
 * A user's balance together with what its pending holds took from it, a token's remaining quota
 * together with its pending holds, a redemption code, an online top-up and every credit stay at
 * or below it. Reserve, settle and void never raise "balance + pending holds", so the balance
 * itself never passes it either; and every sum the ledger forms on the way (balance + refund,
 * balance + credit) stays far below 2^53, where a JavaScript number (and the Postgres bigint →
 * number mapping in src/db) stops being exact.
 */
export const MAX_QUOTA = 1_000_000_000_000_000

/** Declared here rather than in `messages/`, next to the limit they name (the catalogue lists them). */
export const QUOTA_LIMIT_MESSAGE_ENTRIES = {
	/** A credit or an admin edit that would lift a balance past MAX_QUOTA. */
	balanceLimit: [`余额不能超过 ${MAX_QUOTA} 额度`, `the balance cannot exceed ${MAX_QUOTA} quota`],
	/** An amount (code, token quota, admin edit, option) above MAX_QUOTA. */
	amountLimit: [`额度数值不能超过 ${MAX_QUOTA}`, `a quota amount cannot exceed ${MAX_QUOTA}`],
} as const

export const QUOTA_LIMIT_MESSAGES = /* @__PURE__ */ sourceTexts(QUOTA_LIMIT_MESSAGE_ENTRIES)
