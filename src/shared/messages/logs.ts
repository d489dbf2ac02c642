/**
 * The log calls' messages, and the log lines Ferry writes itself (credits, tests, returned holds).
 *
 * A line is stored with `other.log_line = { code, values }` and, as its content, the English
 * wording (for readers that do not know the codes: exports, the import tool). The log list words a
 * coded line in the reader's language; lines written before the codes keep their stored content.
 * Codes are stable: a stored line keeps its code when the wording changes.
 */
import { chooseForm, plural } from '../plural'
import { sourceTexts } from './define'

export const LOG_MESSAGE_ENTRIES = {
	chooseTime: ['请选择日志时间', 'please choose log time'],
} as const

export const LOG_MESSAGES = /* @__PURE__ */ sourceTexts(LOG_MESSAGE_ENTRIES)

export const LOG_LINE_ENTRIES = {
	'invitation.transferred': ['邀请额度 {quota} 已划转到余额', 'invitation income of {quota} quota transferred to the balance'],
	/** An admin's quota edit; the line also carries `admin_action` (`user.quota`), which the log list words first. */
	'user.quota_changed': ['管理员 {admin} 将额度从 {from} 改为 {to}', 'administrator {admin} changed the quota from {from} to {to}'],
	'root.initial_quota': ['超级管理员的初始额度', 'initial quota of the super admin'],
	'user.new_user_bonus': ['新用户注册赠送 {quota} 额度', 'new-user bonus of {quota} quota'],
	'user.invitee_bonus': ['通过用户 {inviter} 的邀请注册，赠送 {quota} 额度', 'invitation bonus of {quota} quota for registering through the invitation of user {inviter}'],
	'channel.test': ['渠道测试（{endpoint}），不计费', 'channel test ({endpoint}); not charged'],
	'top_up.online': ['在线充值 {amount} 个单位（{quota} 额度），支付方式 {method}，订单号 {trade}', plural('amount', { one: 'online top-up of {amount} unit ({quota} quota) via {method}, trade {trade}', other: 'online top-up of {amount} units ({quota} quota) via {method}, trade {trade}' })],
	'redemption.redeemed': ['使用兑换码 #{id}（{name}）兑换 {quota} 额度', 'redeemed code #{id} ({name}) for {quota} quota'],
	'hold.returned': ['请求 {request} 未完成即中断，预扣的 {quota} 额度已退回', 'request {request} was interrupted before it finished; its hold of {quota} quota was returned'],
	/** A relayed call whose answer was empty, not charged (`ChargeEmptyOutputs` off): a consume line of 0 quota. */
	'call.empty_output': ['上游的回答为空（没有文本、工具调用或其他输出），本次调用不计费，预扣额度已全部退回', 'the upstream\'s answer was empty (no text, tool call or other output): the call was not charged and its hold was returned in full'],
	'task.refused': ['上游拒绝了 {model} 任务（{reason}），预扣的 {quota} 额度已退回', 'the upstream refused the {model} task ({reason}); its hold of {quota} quota was returned'],
	'task.failed_at_once': ['任务 {task} 提交后即失败，预扣的 {quota} 额度已退回', 'the task {task} failed at once; its hold of {quota} quota was returned'],
	'task.drawing_failed': ['绘图任务 {task} 失败（{reason}），预扣的 {quota} 额度已退回', 'the drawing task {task} failed ({reason}); its hold of {quota} quota was returned'],
	'task.failed': ['任务 {task} 失败（{reason}），预扣的 {quota} 额度已退回', 'the task {task} failed ({reason}); its hold of {quota} quota was returned'],
	'plan.purchased': ['购买套餐 #{plan}「{name}」，支付 {quota} 额度', 'bought the plan #{plan} "{name}" for {quota} quota'],
	'plan.paid_online': ['在线支付购买套餐 #{plan}「{name}」，支付方式 {method}，订单号 {trade}', 'bought the plan #{plan} "{name}" online via {method}, trade {trade}'],
	'plan.redeemed': ['使用兑换码 #{id}（{code}）获得套餐 #{plan}「{name}」', 'redeemed code #{id} ({code}) for the plan #{plan} "{name}"'],
	'plan.default_granted': ['新用户获赠套餐 #{plan}「{name}」', 'new-user plan #{plan} "{name}"'],
	'import.opening_balance': ['从 {source} 转入的期初余额', 'opening balance carried over from {source}'],
	'import.used_before': ['迁移前在 {source} 已使用的额度（在此记为一笔已结算的消费）', 'quota used in {source} before the move (booked here as one settled charge)'],
} as const

export type LogLineCode = keyof typeof LOG_LINE_ENTRIES
export type LogLineValues = Readonly<Record<string, string | number>>
/** What `other.log_line` holds. */
export type LogLineRecord = { code: LogLineCode; values: LogLineValues }

export const isLogLineCode = (code: unknown): code is LogLineCode => typeof code === 'string' && Object.hasOwn(LOG_LINE_ENTRIES, code)

/** The `content` and the `other` fields of a coded line: English content, and the code to word it again. */
export function logLine(code: LogLineCode, values: LogLineValues = {}): { content: string; other: { log_line: LogLineRecord } } {
	const english = chooseForm('en', LOG_LINE_ENTRIES[code][1], values).replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole))
	return { content: english, other: { log_line: { code, values } } }
}

export type StoredLogLine = { content: string; other: string }

/** `logLine` for a direct insert into the log table, whose `other` column holds JSON text. */
export function storedLine(code: LogLineCode, values: LogLineValues = {}): StoredLogLine {
	const { content, other } = logLine(code, values)
	return { content, other: JSON.stringify(other) }
}
