/** What the redemption code calls answer (docs/specification/tokens-and-money.md#redemption-codes). */
import { REDEMPTION_CREATE_MAX_COUNT, REDEMPTION_NAME_MAX_LENGTH } from '../redemption-constants'
import { sourceTexts } from './define'

export const REDEMPTION_MESSAGE_ENTRIES = {
	nameLength: [`兑换码名称长度必须在 1 到 ${REDEMPTION_NAME_MAX_LENGTH} 个字符之间`, `the redemption code name must be 1 to ${REDEMPTION_NAME_MAX_LENGTH} characters`],
	quotaInvalid: ['额度必须是正整数', 'quota must be a positive integer'],
	countInvalid: ['创建数量必须是正整数', 'creation count must be a positive integer'],
	countTooLarge: [`一次最多创建 ${REDEMPTION_CREATE_MAX_COUNT} 个兑换码`, `at most ${REDEMPTION_CREATE_MAX_COUNT} redemption codes can be created at once`],
	expiryFormat: ['过期时间格式错误', 'expiry format error'],
	expiryPast: ['过期时间必须为 0（永不过期）或将来的时间', 'the expiry must be 0 (never) or a time in the future'],
	statusInvalid: ['兑换码只能启用或禁用', 'a redemption code can only be enabled or disabled'],
	usedStatusLocked: ['已使用的兑换码不能启用或禁用', 'a used redemption code cannot be enabled or disabled'],
	usedNotEditable: ['已使用的兑换码不能编辑', 'a used redemption code cannot be edited'],
	notFound: ['兑换码不存在', 'redemption code not found'],
	/** The message the console shows itself. */
	keyRequired: ['请输入兑换码', 'please enter redemption code'],
	/** The dictionary message: the one answer for a wrong, used, disabled, expired or deleted key. */
	invalidCode: ['兑换码无效、已使用或不存在', 'invalid, used or missing redemption code'],
	redeemed: ['兑换成功', 'redeemed'],
	planInvalid: ['套餐须为套餐的编号（0 表示兑换额度）', 'the plan must be a plan id (0: a code for quota)'],
} as const

export const REDEMPTION_MESSAGES = /* @__PURE__ */ sourceTexts(REDEMPTION_MESSAGE_ENTRIES)
