/** What the call-limit settings answer when refused (tokens, users, `GroupRateLimits`, `ModelRateLimits`). */
import { CONCURRENCY_LIMIT_MAX, RATE_LIMIT_MAX } from '../rate-limit-constants'
import { sourceTexts } from './define'

export const RATE_LIMIT_MESSAGE_ENTRIES = {
	rpmInvalid: [`每分钟请求数上限须为 0 到 ${RATE_LIMIT_MAX} 之间的整数（0 表示不限）`, `the requests-per-minute limit must be a whole number from 0 to ${RATE_LIMIT_MAX} (0: no limit)`],
	tpmInvalid: [`每分钟 token 数上限须为 0 到 ${RATE_LIMIT_MAX} 之间的整数（0 表示不限）`, `the tokens-per-minute limit must be a whole number from 0 to ${RATE_LIMIT_MAX} (0: no limit)`],
	rpdInvalid: [`每天请求数上限须为 0 到 ${RATE_LIMIT_MAX} 之间的整数（0 表示不限）`, `the requests-per-day limit must be a whole number from 0 to ${RATE_LIMIT_MAX} (0: no limit)`],
	concurrencyInvalid: [`并发上限须为 0 到 ${CONCURRENCY_LIMIT_MAX} 之间的整数（0 表示不限）`, `the concurrency limit must be a whole number from 0 to ${CONCURRENCY_LIMIT_MAX} (0: no limit)`],
} as const

export const RATE_LIMIT_MESSAGES = /* @__PURE__ */ sourceTexts(RATE_LIMIT_MESSAGE_ENTRIES)
