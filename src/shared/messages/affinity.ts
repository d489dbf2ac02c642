/** Messages of session-affinity management. */
import { sourceTexts } from './define'

export const AFFINITY_MESSAGE_ENTRIES = {
	sessionNeedsUserAndModel: ['清除单个会话时须同时给出用户 ID 和模型', 'to purge one session, give its user id and model too'],
	purged: ['已清除 {count} 个会话', '{count} sessions purged'],
} as const

export const AFFINITY_MESSAGES = /* @__PURE__ */ sourceTexts(AFFINITY_MESSAGE_ENTRIES)
