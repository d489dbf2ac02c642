import { QUOTA_TYPE } from '@shared/pricing-constants'
import { isVideoModel } from '@shared/video'
import { Badge } from '@ui/components/ui/badge'
import { copyText } from '@ui/components/ui/copy'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@ui/components/ui/table'
import { useTranslation } from '@ui/i18n'
import { useStatus } from '@ui/lib/status'
import { callPrice, type Currency, formatPrice, type TokenUnit, tokenPrices } from '@ui/features/pricing/pricing-display'
import type { PricingEntry } from '@ui/features/pricing/api'

type PricingTableProps = {
	entries: PricingEntry[]
	usableGroups: Record<string, string>
	selectedGroup: string
	groupRatio: number
	unit: TokenUnit
	showRatios: boolean
	currency: Currency
}

/** One row per model: billing type, the visitor's groups serving it, and its USD price in the chosen group. */
export function PricingTable({ entries, usableGroups, selectedGroup, groupRatio, unit, showRatios, currency }: PricingTableProps) {
	const { t } = useTranslation()
	const unitLabel = unit === 'million' ? t('/ 1M tokens') : t('/ 1K tokens')
	return (
		<div className="overflow-x-auto rounded-md border">
			<Table>
				<TableHeader>
					<TableRow>
						<TableHead>{t('模型名称')}</TableHead>
						<TableHead className={onPhoneHidden}>{t('计费类型')}</TableHead>
						<TableHead className={onPhoneHidden}>{t('可用分组')}</TableHead>
						{showRatios && <TableHead className={onPhoneHidden}>{t('倍率')}</TableHead>}
						<TableHead>{t('模型价格')}</TableHead>
					</TableRow>
				</TableHeader>
				<TableBody>
					{entries.length === 0 ? (
						<TableRow>
							<TableCell colSpan={showRatios ? 5 : 4} className="py-8 text-center text-muted-foreground">{t('暂无数据')}</TableCell>
						</TableRow>
					) : entries.map((entry) => {
						const groups = entry.enable_groups.filter((group) => group in usableGroups)
						const servedHere = entry.enable_groups.includes(selectedGroup)
						return (
							<TableRow key={entry.model_name} data-model={entry.model_name}>
								<TableCell className="max-[600px]:whitespace-normal">
									<button type="button" title={t('点击复制模型名称')} className="font-mono text-sm break-all text-left hover:underline" onClick={() => copyText(entry.model_name, t)}>
										{entry.model_name}
									</button>
									{/* On a phone the billing type sits under the name, and the groups leave: the price stays in view. */}
									<span className="mt-1 block min-[601px]:hidden">
										<QuotaTypeBadge perCall={entry.quota_type === QUOTA_TYPE.perCall} perSecond={perSecond(entry)} />
									</span>
								</TableCell>
								<TableCell className={onPhoneHidden}>
									<QuotaTypeBadge perCall={entry.quota_type === QUOTA_TYPE.perCall} perSecond={perSecond(entry)} />
								</TableCell>
								<TableCell className={onPhoneHidden}>
									<div className="flex flex-wrap gap-1">
										{groups.length === 0 && <span className="text-xs text-muted-foreground">{t('无可用分组')}</span>}
										{groups.map((group) => (
											<Badge key={group} variant={group === selectedGroup ? 'default' : 'outline'}>{group}</Badge>
										))}
									</div>
								</TableCell>
								{showRatios && (
									<TableCell className={`text-xs tabular-nums ${onPhoneHidden}`} data-testid="ratios">
										{entry.quota_type === QUOTA_TYPE.perCall ? (
											<span>{t('分组倍率')}: {groupRatio}</span>
										) : (
											<div className="flex flex-col gap-0.5">
												<span>{t('模型倍率')}: {entry.model_ratio}</span>
												<span>{t('补全倍率')}: {entry.completion_ratio}</span>
												<span>{t('分组倍率')}: {groupRatio}</span>
											</div>
										)}
									</TableCell>
								)}
								<TableCell className="tabular-nums max-[600px]:whitespace-normal">
									<PriceCell entry={entry} groupRatio={groupRatio} unit={unit} unitLabel={unitLabel} currency={currency} />
									{!servedHere && <span className="mt-1 block text-xs text-muted-foreground">{t('所选分组不可用')}</span>}
								</TableCell>
							</TableRow>
						)
					})}
				</TableBody>
			</Table>
		</div>
	)
}

/** Columns a phone leaves out (their values are under the model name, or in the group view). */
const onPhoneHidden = 'max-[600px]:hidden'

/** A video model's fixed price is USD per second of the video asked for. */
const perSecond = (entry: PricingEntry) => entry.quota_type === QUOTA_TYPE.perCall && isVideoModel(entry.model_name)

function QuotaTypeBadge({ perCall, perSecond }: { perCall: boolean; perSecond: boolean }) {
	const { t } = useTranslation()
	if (perSecond) return <Badge variant="purple">{t('按秒计费')}</Badge>
	return perCall ? <Badge variant="purple">{t('按次计费')}</Badge> : <Badge variant="secondary">{t('按量计费')}</Badge>
}

type PriceCellProps = { entry: PricingEntry; groupRatio: number; unit: TokenUnit; unitLabel: string; currency: Currency }

function PriceCell({ entry, groupRatio, unit, unitLabel, currency }: PriceCellProps) {
	const { t } = useTranslation()
	const status = useStatus()
	const format = (amount: number) => formatPrice(amount, currency, status.usd_exchange_rate)
	if (perSecond(entry)) return <span data-testid="second-price">{t('{price} / 秒', { price: format(callPrice(entry, groupRatio)) })}</span>
	if (entry.quota_type === QUOTA_TYPE.perCall) {
		return <span data-testid="call-price">{t('{price} / 次', { price: format(callPrice(entry, groupRatio)) })}</span>
	}
	const prices = tokenPrices(entry, groupRatio, unit)
	return (
		<div className="flex flex-col gap-0.5">
			<span data-testid="prompt-price">{t('提示 {price}', { price: format(prices.prompt) })} <span className="text-xs text-muted-foreground">{unitLabel}</span></span>
			<span data-testid="completion-price">{t('补全 {price}', { price: format(prices.completion) })} <span className="text-xs text-muted-foreground">{unitLabel}</span></span>
			{entry.tiers ? <TierLines entry={entry} groupRatio={groupRatio} unit={unit} format={format} /> : null}
		</div>
	)
}

/** A model's tiered prices (`ModelPriceTiers`): the prices above each prompt threshold, 1-hour cache writes, the minimum charge. */
function TierLines({ entry, groupRatio, unit, format }: { entry: PricingEntry; groupRatio: number; unit: TokenUnit; format: (amount: number) => string }) {
	const { t } = useTranslation()
	const status = useStatus()
	const tiers = entry.tiers!
	return (
		<ul className="mt-1 flex flex-col gap-0.5 text-xs text-muted-foreground" data-testid="price-tiers">
			{(tiers.tiers ?? []).map((tier) => {
				const prices = tokenPrices({ ...entry, model_ratio: tier.model_ratio ?? entry.model_ratio, completion_ratio: tier.completion_ratio ?? entry.completion_ratio }, groupRatio, unit)
				return (
					<li key={tier.above_prompt_tokens}>
						{t('输入超过 {tokens} tokens：提示 {prompt}，补全 {completion}', { tokens: tier.above_prompt_tokens.toLocaleString('en-US'), prompt: format(prices.prompt), completion: format(prices.completion) })}
					</li>
				)
			})}
			{tiers.create_cache_1h_ratio !== undefined ? <li>{t('1 小时缓存写入：输入价格的 {ratio} 倍', { ratio: tiers.create_cache_1h_ratio })}</li> : null}
			{tiers.minimum_quota ? <li>{t('每次最低 {price}', { price: format((tiers.minimum_quota / (status.quota_per_unit || 500_000))) })}</li> : null}
		</ul>
	)
}
