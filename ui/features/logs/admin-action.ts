/**
 * How an admin audit line (type 3 with `other.admin_action`, issue 17) reads in the console: one zh
 * template per action, filled with the line's target and details; `t()` gives the English.
 */
import type { AdminActionName } from '@shared/admin-action-constants'

export const ADMIN_ACTION_TEMPLATES: Record<AdminActionName, string> = {
	'channel.create': '创建渠道 {target}',
	'channel.update': '编辑渠道 {target}：{fields}',
	'channel.delete': '删除渠道 {target}',
	'channel.delete_batch': '批量删除渠道 {target}',
	'channel.delete_disabled': '删除已禁用的渠道 {target}',
	'channel.tag_set': '为渠道 {target} 设置标签 {tag}',
	'channel.tag_edit': '编辑标签 {tag} 的 {count} 个渠道：{fields}',
	'channel.tag_enable': '启用标签 {tag} 的 {count} 个渠道',
	'channel.tag_disable': '禁用标签 {tag} 的 {count} 个渠道',
	'channel.fix': '修复 {count} 个渠道的能力',
	'user.create': '创建用户 {target}',
	'user.update': '编辑用户 {target}：{fields}',
	'user.quota': '{admin} 将用户 {target} 的额度从 {from} 改为 {to}',
	'user.promote': '将用户 {target} 提升为管理员',
	'user.demote': '将用户 {target} 降为普通用户',
	'user.enable': '启用用户 {target}',
	'user.disable': '禁用用户 {target}',
	'user.delete': '删除用户 {target}',
	'option.update': '将设置 {key} 改为 {value}',
	'option.reset_model_ratio': '重置模型倍率',
	'redemption.create': '创建 {count} 个兑换码 {name}（额度 {quota}）：{target}',
	'redemption.update': '编辑兑换码 {target}：{fields}',
	'redemption.status': '将兑换码 {target} 的状态设为 {status}',
	'redemption.delete': '删除兑换码 {target}',
	'log.cleanup': '清除 {before} 之前的 {count} 条日志',
}

/** A secret option's line carries no value. */
export const SECRET_OPTION_TEMPLATE = '修改设置 {key}（密钥，不记录值）'

/** The line's template and values, or undefined when it is not an admin action Ferry knows. */
export function adminActionText(other: Record<string, unknown>, formatTime: (seconds: number) => string): { template: string; values: Record<string, string | number> } | undefined {
	const record = other.admin_action
	if (typeof record !== 'object' || record === null) return undefined
	const { action, ...rest } = record as Record<string, unknown>
	if (typeof action !== 'string' || !Object.hasOwn(ADMIN_ACTION_TEMPLATES, action)) return undefined
	const values: Record<string, string | number> = {}
	for (const [key, value] of Object.entries(rest)) {
		if (typeof value === 'string' || typeof value === 'number') values[key] = value
		else if (typeof value === 'boolean') values[key] = String(value)
	}
	if (typeof values.before === 'number') values.before = formatTime(values.before)
	if (action === 'option.update' && rest.secret === true) return { template: SECRET_OPTION_TEMPLATE, values }
	return { template: ADMIN_ACTION_TEMPLATES[action as AdminActionName], values }
}
