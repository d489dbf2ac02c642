import { useEffect, useState } from 'react'
import { Button } from '@ui/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@ui/components/ui/card'
import { ConfirmDialog } from '@ui/components/ui/confirm-dialog'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { toast } from '@ui/components/ui/toaster'
import { fetchPayableAmount, startPayment } from '@ui/features/top-up/api'
import { submitPaymentForm } from '@ui/features/top-up/submit-payment-form'
import { MAX_QUOTA } from '@shared/quota-limit'
import { creditedQuota, exceedsBalanceLimit, formatMoney, minimumTopUp, parseTopUpAmount } from '@ui/features/top-up/top-up-display'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { renderQuota } from '@ui/lib/format'
import { type Status, useStatus } from '@ui/lib/status'
import { builtInText } from '@ui/lib/built-in-texts'

type PayMethod = Status['pay_methods'][number]

/** Waits this long after the last keystroke before asking the server for the payable amount. */
const PRICE_DEBOUNCE_MS = 300

/**
 * Online top-up (docs/specification/tokens-and-money.md#online-top-up): the amount, its payable money priced live by the server, one button
 * per payment method (with its own minimum when it sets a larger one); a click asks the payable
 * amount, confirms, then sends the browser to pay.
 * `balance` is the caller's quota: an amount the balance could not take is refused here.
 */
export function OnlineTopUpCard({ balance }: { balance: number }) {
	const { t } = useTranslation()
	const status = useStatus()
	const enabled = status.enable_online_topup
	const minimum = minimumTopUp(status)
	const [amountText, setAmountText] = useState(String(Math.max(1, minimum)))
	const [payable, setPayable] = useState('')
	const [confirming, setConfirming] = useState<{ method: PayMethod; money: string } | null>(null)
	const [busy, setBusy] = useState(false)
	const amount = parseTopUpAmount(amountText)
	const methods = Array.isArray(status.pay_methods) ? status.pay_methods.filter((method) => method && method.type && method.name) : []

	useEffect(() => {
		setPayable('')
		if (!enabled || amount < minimum) return
		let current = true
		const timer = setTimeout(() => {
			fetchPayableAmount(browserApi, amount)
				.then((envelope) => { if (current && envelope.success) setPayable(envelope.data) })
				.catch(() => {})
		}, PRICE_DEBOUNCE_MS)
		return () => {
			current = false
			clearTimeout(timer)
		}
	}, [enabled, amount, minimum])

	async function choose(method: PayMethod) {
		if (!enabled) {
			toast.error(t('管理员未开启在线充值！'))
			return
		}
		const methodMinimum = minimumTopUp(status, method)
		if (amount < methodMinimum) {
			toast.error(t('充值数量不能小于 {min}', { min: methodMinimum }))
			return
		}
		if (exceedsBalanceLimit(balance, creditedQuota(amount, status))) {
			toast.error(t('充值后余额将超过上限 {max}，无法到账', { max: renderQuota(MAX_QUOTA, status) }))
			return
		}
		setBusy(true)
		const envelope = await callApi(t, fetchPayableAmount(browserApi, amount, method.type))
		setBusy(false)
		if (!envelope) return
		setPayable(envelope.data)
		setConfirming({ method, money: envelope.data })
	}

	async function pay() {
		if (!confirming) return
		const { method } = confirming
		setConfirming(null)
		setBusy(true)
		const envelope = (await callApi(t, startPayment(browserApi, amount, method.type))) as Awaited<ReturnType<typeof startPayment>> | undefined
		if (!envelope) {
			setBusy(false)
			return
		}
		if (!envelope.url) {
			setBusy(false)
			toast.error(t('支付方式配置错误，请联系管理员'))
			return
		}
		submitPaymentForm(envelope.url, envelope.data)
	}

	return (
		<Card data-testid="online-top-up-card">
			<CardHeader>
				<CardTitle>{t('在线充值')}</CardTitle>
				<CardDescription>
					{enabled ? t('最低充值 {min}', { min: minimum }) : t('管理员未开启在线充值！')}
				</CardDescription>
			</CardHeader>
			<CardContent className="flex flex-col gap-3">
				<Label htmlFor="top-up-amount">{status.display_in_currency ? t('充值数量（美元）') : t('充值数量（额度）')}</Label>
				<Input
					id="top-up-amount"
					type="number"
					inputMode="numeric"
					min={1}
					step={1}
					disabled={!enabled}
					value={amountText}
					onChange={(event) => setAmountText(event.target.value)}
					onBlur={() => setAmountText(String(amount))}
				/>
				<p className="text-sm text-muted-foreground" data-testid="top-up-quota-hint">
					{t('到账额度：{quota}', { quota: renderQuota(creditedQuota(amount, status), status) })}
				</p>
				<p className="text-sm" data-testid="payable-amount">
					{t('实付金额：{money}', { money: payable ? formatMoney(payable) : '-' })}
				</p>
				{enabled && methods.length === 0 ? <p className="text-sm text-destructive">{t('支付方式配置错误，请联系管理员')}</p> : null}
				<div className="flex flex-wrap gap-2">
					{methods.map((method) => (
						<Button
							key={method.type}
							type="button"
							disabled={!enabled || busy}
							data-testid={`pay-${method.type}`}
							style={method.color ? { backgroundColor: method.color, color: '#fff' } : undefined}
							onClick={() => void choose(method)}
						>
							{t(builtInText(method.name))}
							{minimumTopUp(status, method) > minimum ? <span data-testid={`pay-${method.type}-minimum`}>{t('（最低 {min}）', { min: minimumTopUp(status, method) })}</span> : null}
						</Button>
					))}
				</div>
			</CardContent>
			<ConfirmDialog
				open={confirming !== null}
				onOpenChange={(open) => { if (!open) setConfirming(null) }}
				title={t('确认充值')}
				confirmText={t('去支付')}
				onConfirm={() => void pay()}
			>
				{confirming ? (
					<dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="top-up-confirm">
						<dt className="text-muted-foreground">{t('充值数量')}</dt>
						<dd>{amount}</dd>
						<dt className="text-muted-foreground">{t('实付金额')}</dt>
						<dd data-testid="confirm-money">{formatMoney(confirming.money)}</dd>
						<dt className="text-muted-foreground">{t('支付方式')}</dt>
						<dd>{t(builtInText(confirming.method.name))}</dd>
					</dl>
				) : null}
			</ConfirmDialog>
		</Card>
	)
}
