/** Messages of session-affinity management. */
import { plural } from '../plural'
import { sourceTexts } from './define'

export const AFFINITY_MESSAGE_ENTRIES = {
	sessionNeedsUserAndModel: ['清除单个会话时须同时给出用户 ID 和模型', 'to purge one session, give its user id and model too'],
	purged: ['已清除 {count} 个会话', plural('count', { one: '{count} session purged', other: '{count} sessions purged' })],
} as const

export const AFFINITY_MESSAGES = /* @__PURE__ */ sourceTexts(AFFINITY_MESSAGE_ENTRIES)
