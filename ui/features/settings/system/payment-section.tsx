import { useLoaderData } from 'react-router'
import { FieldGrid, OptionInput, OptionJson, OptionNumber, OptionSecret, SectionCard } from '@ui/features/settings/option-fields'
import { addressRule, type BeforeSave, jsonRule, numberRule, optionMessages, secretRule, useOptionForm } from '@ui/features/settings/options-form'
import type { SettingData } from '@ui/features/settings/setting-route'

const KEYS = ['PayAddress', 'EpayId', 'EpayKey', 'Price', 'MinTopUp', 'TopupGroupRatio', 'PayMethods', 'CustomCallbackAddress'] as const

/** Each payment JSON option has its own message (docs/specification/accounts-and-settings.md#system-tab). */
const paymentMessages = {
	topupGroupRatio: '充值分组倍率不是合法的 JSON 字符串',
	payMethods: '充值方式设置不是合法的 JSON 字符串',
} as const

const RULES = {
	PayAddress: addressRule,
	EpayKey: secretRule,
	Price: numberRule(0),
	MinTopUp: numberRule(1),
	TopupGroupRatio: jsonRule(paymentMessages.topupGroupRatio),
	PayMethods: jsonRule(paymentMessages.payMethods),
	CustomCallbackAddress: addressRule,
}

/** Online top-up through epay (docs/specification/accounts-and-settings.md#system-tab): the server address must be saved first. */
export function PaymentSection() {
	const serverAddress = (useLoaderData() as SettingData).options?.ServerAddress ?? ''
	const beforeSave: BeforeSave = () => (serverAddress.trim() === '' ? optionMessages.serverAddressFirst : undefined)
	const form = useOptionForm(KEYS, RULES, beforeSave)
	return (
		<SectionCard id="payment" title="支付设置" description="当前仅支持易支付接口，回调地址默认使用上方的服务器地址" form={form} saveText="更新支付设置">
			<FieldGrid>
				<OptionInput form={form} name="PayAddress" label="支付地址" placeholder="例如：https://yourdomain.com" />
				<OptionInput form={form} name="EpayId" label="易支付商户 ID" placeholder="例如：0001" />
				<OptionSecret form={form} name="EpayKey" label="易支付商户密钥" />
				<OptionInput form={form} name="CustomCallbackAddress" label="回调地址" placeholder="留空则使用服务器地址" />
				<OptionNumber form={form} name="Price" label="充值价格（x 元/美元）" hint="例如 7.3，即 7.3 元兑换 1 美元的额度" />
				<OptionNumber form={form} name="MinTopUp" label="最低充值美元数量" hint="以美元为单位" step={1} />
			</FieldGrid>
			<OptionJson form={form} name="TopupGroupRatio" label="充值分组倍率" hint="JSON 对象：分组名 → 充值价格倍率" />
			<OptionJson form={form} name="PayMethods" label="充值方式设置" hint="JSON 列表：每项有 name、type，可选 color 和 min_topup（该方式的最低充值美元数量，高于最低充值美元数量时生效）" />
		</SectionCard>
	)
}
