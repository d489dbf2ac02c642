import { FieldGrid, OptionNumber, OptionQuota, SectionCard } from '@ui/features/settings/option-fields'
import { numberRule, quotaRule, useOptionForm } from '@ui/features/settings/options-form'

const KEYS = ['QuotaForNewUser', 'PreConsumedQuota', 'QuotaForInviter', 'QuotaForInvitee', 'DefaultPlanId'] as const
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
		</SectionCard>
	)
}
