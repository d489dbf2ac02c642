import { useState } from 'react'
import type { PlanView } from '@shared/plan'
import { Badge } from '@ui/components/ui/badge'
import { Button } from '@ui/components/ui/button'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@ui/components/ui/card'
import { ConfirmDialog } from '@ui/components/ui/confirm-dialog'
import { toast } from '@ui/components/ui/toaster'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { builtInText } from '@ui/lib/built-in-texts'
import { callApi } from '@ui/lib/call-api'
import { renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'
import { payPlanOnline, purchasePlan } from '@ui/features/plans/api'
import { describeLength } from '@ui/features/plans/plan-display'
import { submitPaymentForm } from '@ui/features/top-up/submit-payment-form'

/**
 * A plan on sale: its price, how long it lasts, each window's allowance, the models and group it
 * brings. Bought from the wallet (after a confirmation naming the price and the balance) or, when
 * the site takes online payments, paid online like a top-up.
 */
export function PlanCard({ plan, balance, owned, onBought }: { plan: PlanView; balance: number; owned: boolean; onBought: () => void }) {
	const { t } = useTranslation()
	const status = useStatus()
	const [confirming, setConfirming] = useState(false)
	const [busy, setBusy] = useState(false)
	const duration = describeLength(plan.duration_seconds)
	const methods = status.enable_online_topup && Array.isArray(status.pay_methods) ? status.pay_methods.filter((method) => method && method.type && method.name) : []

	async function buy() {
		setConfirming(false)
		setBusy(true)
		const bought = await callApi(t, purchasePlan(browserApi, plan.id), '购买成功')
		setBusy(false)
		if (bought) onBought()
	}

	async function payOnline(method: string) {
		setBusy(true)
		const envelope = (await callApi(t, payPlanOnline(browserApi, plan.id, method))) as Awaited<ReturnType<typeof payPlanOnline>> | undefined
		if (!envelope?.url) {
			setBusy(false)
			if (envelope) toast.error(t('支付方式配置错误，请联系管理员'))
			return
		}
		submitPaymentForm(envelope.url, envelope.data)
	}

	return (
		<Card data-testid="plan-card" data-plan={plan.id} className="flex flex-col">
			<CardHeader>
				<CardTitle className="flex flex-wrap items-center gap-2">
					<span>{plan.name}</span>
					{!plan.enabled ? <Badge variant="grey">{t('已停售')}</Badge> : null}
					{owned ? <Badge variant="green">{t('已订阅')}</Badge> : null}
				</CardTitle>
				<CardDescription>
					<span className="text-lg font-semibold text-foreground tabular-nums" data-testid="plan-price">{plan.price > 0 ? renderQuota(plan.price, status) : t('免费')}</span>
					{' / '}
					{t(duration.text, duration.values)}
				</CardDescription>
			</CardHeader>
			<CardContent className="flex flex-1 flex-col gap-2 text-sm">
				<ul className="flex flex-col gap-1">
					{plan.windows.map((window, index) => {
						const length = describeLength(window.seconds)
						return (
							<li key={index} className="flex justify-between gap-2">
								<span className="text-muted-foreground">{t('每 {length}', { length: t(length.text, length.values) })}</span>
								<span className="tabular-nums">{renderQuota(window.quota, status)}</span>
							</li>
						)
					})}
				</ul>
				<p className="text-muted-foreground">{plan.models.length > 0 ? t('适用模型：{models}', { models: plan.models.join(', ') }) : t('适用于全部模型')}</p>
				{plan.group ? <p className="text-muted-foreground">{t('使用分组 {group}', { group: plan.group })}</p> : null}
			</CardContent>
			<CardFooter className="flex flex-wrap gap-2">
				<Button type="button" disabled={busy || owned || !plan.enabled} data-testid="plan-buy" onClick={() => setConfirming(true)}>{t('用余额购买')}</Button>
				{methods.map((method) => (
					<Button
						key={method.type}
						type="button"
						variant="outline"
						disabled={busy || owned || !plan.enabled || plan.price <= 0}
						data-testid={`plan-pay-${method.type}`}
						onClick={() => void payOnline(method.type)}
					>
						{t(builtInText(method.name))}
					</Button>
				))}
			</CardFooter>
			<ConfirmDialog
				open={confirming}
				onOpenChange={setConfirming}
				title={t('购买套餐 {name}', { name: plan.name })}
				description={t('将从钱包扣除 {price}，当前余额 {balance}', { price: renderQuota(plan.price, status), balance: renderQuota(balance, status) })}
				confirmText={t('购买')}
				onConfirm={() => void buy()}
			/>
		</Card>
	)
}
