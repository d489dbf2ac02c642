import { type FormEvent, useState } from 'react'
import { useRevalidator } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@ui/components/ui/card'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { toast } from '@ui/components/ui/toaster'
import { redeemCode } from '@ui/features/top-up/api'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'

/** Redeems a code (docs/specification/tokens-and-money.md#the-wallet) and links to where codes are sold (`TopUpLink`). */
export function RedeemCard() {
	const { t } = useTranslation()
	const status = useStatus()
	const revalidator = useRevalidator()
	const [key, setKey] = useState('')
	const [submitting, setSubmitting] = useState(false)

	async function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		const code = key.trim()
		if (!code) {
			toast.error(t('请输入兑换码！'))
			return
		}
		setSubmitting(true)
		const envelope = await callApi(t, redeemCode(browserApi, code))
		setSubmitting(false)
		if (!envelope) return
		// A plan code adds no quota: the server's message names the plan it granted.
		if (envelope.data === 0 && envelope.message) toast.success(t(envelope.message))
		else toast.success(t('兑换成功！已增加额度：{quota}', { quota: renderQuota(envelope.data, status) }))
		setKey('')
		await revalidator.revalidate()
	}

	function openTopUpLink() {
		if (!status.top_up_link) {
			toast.error(t('超级管理员未设置充值链接！'))
			return
		}
		window.open(status.top_up_link, '_blank', 'noopener,noreferrer')
	}

	return (
		<Card data-testid="redeem-card">
			<CardHeader>
				<CardTitle>{t('兑换余额')}</CardTitle>
				<CardDescription>{t('使用兑换码为账户增加额度')}</CardDescription>
			</CardHeader>
			<CardContent>
				<form noValidate onSubmit={handleSubmit} className="flex flex-col gap-3">
					<Label htmlFor="redemption-key">{t('你的兑换码')}</Label>
					<Input id="redemption-key" autoComplete="off" placeholder={t('请输入兑换码')} value={key} onChange={(event) => setKey(event.target.value)} />
					<div className="flex flex-wrap gap-2">
						<Button type="submit" disabled={submitting}>
							{submitting ? t('兑换中…') : t('兑换')}
						</Button>
						<Button type="button" variant="outline" onClick={openTopUpLink}>
							{t('获取兑换码')}
						</Button>
					</div>
				</form>
			</CardContent>
		</Card>
	)
}
