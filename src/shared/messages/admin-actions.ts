/**
 * How an admin audit line (type 3 with `other.admin_action`, issue 17) reads: one template per
 * action, filled with the line's target and details. The log list words the line in the reader's
 * language from these; the console's log page uses the same Chinese templates.
 */
import { plural } from '../plural'
import type { AdminActionName } from '../admin-action-constants'
import type { MessagePair } from './define'

export const ADMIN_ACTION_ENTRIES = {
	'channel.create': ['创建渠道 {target}', 'Created channel {target}'],
	'channel.update': ['编辑渠道 {target}：{fields}', 'Edited channel {target}: {fields}'],
	'channel.delete': ['删除渠道 {target}', 'Deleted channel {target}'],
	'channel.delete_batch': ['批量删除渠道 {target}', 'Deleted channels {target}'],
	'channel.delete_disabled': ['删除已禁用的渠道 {target}', 'Deleted the disabled channels {target}'],
	'channel.tag_set': ['为渠道 {target} 设置标签 {tag}', 'Set the tag {tag} on channels {target}'],
	'channel.tag_edit': ['编辑标签 {tag} 的 {count} 个渠道：{fields}', plural('count', { one: 'Edited the {count} channel of tag {tag}: {fields}', other: 'Edited the {count} channels of tag {tag}: {fields}' })],
	'channel.tag_enable': ['启用标签 {tag} 的 {count} 个渠道', plural('count', { one: 'Enabled the {count} channel of tag {tag}', other: 'Enabled the {count} channels of tag {tag}' })],
	'channel.tag_disable': ['禁用标签 {tag} 的 {count} 个渠道', plural('count', { one: 'Disabled the {count} channel of tag {tag}', other: 'Disabled the {count} channels of tag {tag}' })],
	'channel.fix': ['修复 {count} 个渠道的能力', plural('count', { one: 'Rebuilt the abilities of {count} channel', other: 'Rebuilt the abilities of {count} channels' })],
	'user.create': ['创建用户 {target}', 'Created user {target}'],
	'user.update': ['编辑用户 {target}：{fields}', 'Edited user {target}: {fields}'],
	'user.quota': ['{admin} 将用户 {target} 的额度从 {from} 改为 {to}', '{admin} changed the quota of user {target} from {from} to {to}'],
	'user.promote': ['将用户 {target} 提升为管理员', 'Promoted user {target} to admin'],
	'user.demote': ['将用户 {target} 降为普通用户', 'Demoted user {target} to ordinary user'],
	'user.enable': ['启用用户 {target}', 'Enabled user {target}'],
	'user.disable': ['禁用用户 {target}', 'Disabled user {target}'],
	'user.delete': ['删除用户 {target}', 'Deleted user {target}'],
	'user.unbind': ['解除用户 {target} 的 {provider} 绑定', 'Unbound {provider} from user {target}'],
	'option.update': ['将设置 {key} 改为 {value}', 'Set the option {key} to {value}'],
	'option.reset_model_ratio': ['重置模型倍率', 'Reset model ratios'],
	'redemption.create': ['创建 {count} 个兑换码 {name}（额度 {quota}）：{target}', plural('count', { one: 'Created {count} redemption code {name} (quota {quota}): {target}', other: 'Created {count} redemption codes {name} (quota {quota}): {target}' })],
	'redemption.update': ['编辑兑换码 {target}：{fields}', 'Edited redemption code {target}: {fields}'],
	'redemption.status': ['将兑换码 {target} 的状态设为 {status}', 'Set the status of redemption code {target} to {status}'],
	'redemption.delete': ['删除兑换码 {target}', 'Deleted redemption code {target}'],
	'log.cleanup': ['清除 {before} 之前的 {count} 条日志', plural('count', { one: 'Deleted {count} log entry from before {before}', other: 'Deleted {count} log entries from before {before}' })],
	'plan.create': ['创建套餐 {target}', 'Created plan {target}'],
	'plan.update': ['编辑套餐 {target}', 'Edited plan {target}'],
	'plan.delete': ['删除套餐 {target}', 'Deleted plan {target}'],
	'subscription.reset': ['重置用户 {user} 的订阅 {target} 的用量窗口：{windows}', 'Reset the usage windows of subscription {target} of user {user}: {windows}'],
	/** A secret option's line carries no value. */
	'option.update_secret': ['修改设置 {key}（密钥，不记录值）', 'Changed the option {key} (a secret: value not logged)'],
} as const satisfies Record<AdminActionName | 'option.update_secret', MessagePair>
