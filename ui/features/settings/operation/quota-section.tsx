import { FieldGrid, OptionNumber, OptionQuota, OptionSwitch, SectionCard, SwitchRow } from '@ui/features/settings/option-fields'
import { numberRule, quotaRule, useOptionForm } from '@ui/features/settings/options-form'

const KEYS = ['QuotaForNewUser', 'PreConsumedQuota', 'QuotaForInviter', 'QuotaForInvitee', 'DefaultPlanId', 'ChargeEmptyOutputs', 'InviterRewardOnFirstTopUp'] as const
// PreConsumedQuota counts completion tokens, not quota, despite its name.
const RULES = { QuotaForNewUser: quotaRule, PreConsumedQuota: numberRule(0), QuotaForInviter: quotaRule, QuotaForInvitee: quotaRule, DefaultPlanId: numberRule(0) }

export function QuotaSection() {
	const form = useOptionForm(KEYS, RULES)
	return (
		<SectionCard id="quota" title="额度设置" form={form} saveText="保存额度设置">
			<FieldGrid columns={2}>
				<OptionQuota form={form} name="QuotaForNewUser" label="新用户初始额度" />
				<OptionNumber form={form} name="PreConsumedQuota" label="请求预扣费额度" hint="请求结束后多退少补" step={1} />
				<OptionQuota form={form} name="QuotaForInviter" label="邀请新用户奖励额度" />
				<OptionQuota form={form} name="QuotaForInvitee" label="新用户使用邀请码奖励额度" />
				<OptionNumber form={form} name="DefaultPlanId" label="新用户赠送套餐" hint="套餐的 ID（见套餐页）；0 表示不赠送" step={1} />
			</FieldGrid>
			<SwitchRow>
				<OptionSwitch form={form} name="InviterRewardOnFirstTopUp" label="被邀请人首次在线充值后才发放邀请奖励" hint="开启后，邀请新用户奖励额度在被邀请人第一笔在线支付（充值或购买套餐）到账时计入邀请人的待使用收益，每位被邀请人只发放一次；兑换码不算。关闭时注册即发放" />
				<OptionSwitch form={form} name="ChargeEmptyOutputs" label="空回答也计费" hint="上游完成调用却没有任何输出（无文本、工具调用、图像或音频）时仍按提示词计费；关闭时退回预扣额度，日志注明未计费" />
			</SwitchRow>
		</SectionCard>
	)
}
