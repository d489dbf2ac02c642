import { FieldGrid, OptionInput, OptionNumber, OptionSwitch, SectionCard, SwitchRow } from '@ui/features/settings/option-fields'
import { numberRule, useOptionForm } from '@ui/features/settings/options-form'

const KEYS = [
	'TopUpLink', 'ChatLink', 'ChatLink2', 'QuotaPerUnit', 'RetryTimes', 'USDExchangeRate',
	'DisplayInCurrencyEnabled', 'DisplayTokenStatEnabled', 'DefaultCollapseSidebar', 'DemoSiteEnabled', 'SelfUseModeEnabled',
] as const
// One unit is at least one quota: the server refuses less.
const RULES = { QuotaPerUnit: numberRule(1), RetryTimes: numberRule(0), USDExchangeRate: numberRule(0) }

export function GeneralSection() {
	const form = useOptionForm(KEYS, RULES)
	return (
		<SectionCard id="general" title="通用设置" form={form} saveText="保存通用设置">
			<FieldGrid>
				<OptionInput form={form} name="TopUpLink" label="充值链接" placeholder="例如发卡网站的购买链接" />
				<OptionInput form={form} name="ChatLink" label="默认聊天页面链接" placeholder="例如 ChatGPT Next Web 的部署地址" />
				<OptionInput form={form} name="ChatLink2" label="聊天页面 2 链接" placeholder="例如 ChatGPT Next Web 的部署地址" />
				<OptionNumber form={form} name="QuotaPerUnit" label="单位美元额度" hint="一美元可兑换的额度" />
				<OptionNumber form={form} name="RetryTimes" label="失败重试次数" step={1} />
				<OptionNumber form={form} name="USDExchangeRate" label="美元汇率" hint="一美元兑换的人民币" />
			</FieldGrid>
			<SwitchRow>
				<OptionSwitch form={form} name="DisplayInCurrencyEnabled" label="以货币形式显示额度" />
				<OptionSwitch form={form} name="DisplayTokenStatEnabled" label="额度查询接口返回令牌额度而非用户额度" />
				<OptionSwitch form={form} name="DefaultCollapseSidebar" label="默认折叠侧边栏" />
				<OptionSwitch form={form} name="DemoSiteEnabled" label="演示站点模式" />
				<OptionSwitch form={form} name="SelfUseModeEnabled" label="自用模式" hint="未设置价格的模型也可调用" />
			</SwitchRow>
		</SectionCard>
	)
}
