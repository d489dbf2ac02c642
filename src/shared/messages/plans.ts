/** What the plan and subscription calls answer. */
import { PLAN_MODELS_MAX, PLAN_NAME_MAX_LENGTH, PLAN_WINDOWS_MAX, PLAN_WINDOWS_MIN } from '../plan-constants'
import { sourceTexts } from './define'

export const PLAN_MESSAGE_ENTRIES = {
	nameRequired: ['套餐名称不能为空', 'the plan name is required'],
	nameTooLong: [`套餐名称不能超过 ${PLAN_NAME_MAX_LENGTH} 个字符`, `the plan name must not be longer than ${PLAN_NAME_MAX_LENGTH} characters`],
	priceInvalid: ['套餐价格须为不小于 0 的整数额度', 'the plan price must be a whole amount of quota, not below 0'],
	durationInvalid: ['有效期须为 60 秒到 10 年之间的整数秒数', 'the duration must be a whole number of seconds from 60 to 10 years'],
	durationShorterThanWindow: ['有效期不能短于最长的用量窗口', 'the duration cannot be shorter than the longest usage window'],
	windowCount: [`套餐须有 ${PLAN_WINDOWS_MIN} 到 ${PLAN_WINDOWS_MAX} 个用量窗口`, `a plan needs ${PLAN_WINDOWS_MIN} to ${PLAN_WINDOWS_MAX} usage windows`],
	windowSeconds: ['窗口时长须为 60 秒到 366 天之间的整数秒数', 'a window must be a whole number of seconds from 60 to 366 days'],
	windowQuota: ['窗口额度须为不小于 1 的整数', 'a window quota must be a whole number of at least 1'],
	modelsInvalid: [`模型须为不超过 ${PLAN_MODELS_MAX} 个的模型名称列表`, `models must be a list of at most ${PLAN_MODELS_MAX} model names`],
	groupInvalid: ['分组名称过长', 'the group name is too long'],
	notFound: ['套餐不存在', 'plan not found'],
	disabled: ['该套餐已停售', 'this plan is not on sale'],
	alreadySubscribed: ['你已订阅该套餐，当前订阅到期后才能再次购买', 'you already have this plan; it can be bought again once the current subscription ends'],
	insufficientQuota: ['余额不足，无法购买该套餐', 'the balance is too low to buy this plan'],
	subscriptionNotFound: ['订阅不存在', 'subscription not found'],
	windowNotFound: ['该订阅没有这个用量窗口', 'the subscription has no such usage window'],
	purchased: ['购买成功', 'plan bought'],
	windowsReset: ['用量窗口已重置', 'usage windows reset'],
	planPaymentDisabled: ['管理员未开启在线支付', 'admin has not enabled online payment'],
	/** A redemption code that grants a plan: what the redeem call answers. */
	planRedeemed: ['兑换成功，已获得套餐「{name}」', 'redeemed: you now have the plan "{name}"'],
	planCodeUnknownPlan: ['兑换码对应的套餐不存在', 'the plan of this code does not exist'],
	defaultPlanUnknown: ['默认套餐不存在', 'the default plan does not exist'],
} as const

export const PLAN_MESSAGES = /* @__PURE__ */ sourceTexts(PLAN_MESSAGE_ENTRIES)
