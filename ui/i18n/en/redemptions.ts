/** English texts of ui/features/redemptions, keyed by the zh source string. */
import { type Dictionary, plural } from '@ui/i18n/plural'

export const redemptions: Dictionary = {
	// toolbar
	'兑换码 ID 或名称': 'Redemption code ID or name',
	'搜索兑换码的 ID 和名称': 'Search by code ID or name',
	'添加兑换码': 'Add redemption code',
	'复制所选兑换码': 'Copy selected codes',
	'请至少选择一个兑换码': 'Please select at least one redemption code',
	// table
	'未使用': 'Unused',
	'已使用': 'Used',
	'兑换时间': 'Redeemed',
	'兑换人ID': 'Redeemed by user ID',
	'尚未兑换': 'Not redeemed yet',
	'无': 'None',
	'暂无兑换码': 'No redemption codes yet',
	'兑换码已启用': 'Redemption code enabled',
	'兑换码已禁用': 'Redemption code disabled',
	'兑换码已删除': 'Redemption code deleted',
	'确定删除兑换码 {name} 吗？': 'Delete redemption code {name}?',
	'删除后该兑换码将无法兑换，此操作不可撤销': 'The code can no longer be redeemed once deleted. This cannot be undone',
	// drawer
	'编辑兑换码': 'Edit redemption code',
	'兑换码被使用后即失效，额度计入兑换人的钱包': 'A code works once; its quota goes to the wallet of whoever redeems it',
	'留空时以额度作为名称': 'Left empty, the quota becomes the name',
	'请输入名称': 'Enter a name',
	'生成数量': 'Number of codes',
	'一次最多生成 {max} 个': 'At most {max} at a time',
	'名称不能超过 {max} 个字符': 'The name must not be longer than {max} characters',
	'请输入大于 0 的有效额度': 'Enter a valid quota above 0',
	'数量必须是 1 到 {max} 之间的整数': 'The number must be a whole number from 1 to {max}',
	'兑换码更新成功': 'Redemption code updated',
	'兑换码创建成功': 'Redemption codes created',
	// after creation
	'已生成 {count} 个兑换码': plural('count', { one: '{count} redemption code generated', other: '{count} redemption codes generated' }),
	'兑换码可直接兑换额度，请妥善保存': 'Each code can be redeemed for quota: keep them safe',
	'下载 {file}': 'Download {file}',
	'还没有兑换码：生成一批，发给要充值的用户': 'No redemption codes yet: create a batch to hand to users who top up',
	'没有符合搜索条件的兑换码': 'No redemption code matches the search',
	// a code for a plan
	'兑换内容': 'Grants',
	'选择套餐时，兑换码为兑换人开通该套餐，不增加额度': 'With a plan chosen, the code gives its redeemer the plan instead of quota',
	'套餐：{name}': 'Plan: {name}',
}
