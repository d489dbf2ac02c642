import { type FormEvent, useState } from 'react'
import { Button } from '@ui/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@ui/components/ui/dialog'
import { Input } from '@ui/components/ui/input'
import { wechatLogin } from '@ui/features/auth/api'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import type { StoredUser } from '@ui/lib/storage'

type WechatLoginDialogProps = {
	open: boolean
	onOpenChange: (open: boolean) => void
	qrcode: string
	onLoggedIn: (user: StoredUser) => void
}

export function WechatLoginDialog({ open, onOpenChange, qrcode, onLoggedIn }: WechatLoginDialogProps) {
	const { t } = useTranslation()
	const [submitting, setSubmitting] = useState(false)

	async function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		const code = String(new FormData(event.currentTarget).get('code') ?? '').trim()
		if (!code) return
		setSubmitting(true)
		const envelope = await callApi(t, wechatLogin(browserApi, code))
		setSubmitting(false)
		if (envelope) onLoggedIn(envelope.data)
	}

	return (
		<Dialog open={open} onOpenChange={onOpenChange}>
			<DialogContent>
				<DialogHeader>
					<DialogTitle>{t('微信扫码登录')}</DialogTitle>
					<DialogDescription>{t('扫码关注公众号，发送“验证码”获取登录验证码（3 分钟内有效）。')}</DialogDescription>
				</DialogHeader>
				{qrcode && <img src={qrcode} alt={t('微信公众号二维码')} className="mx-auto size-48" />}
				<form onSubmit={handleSubmit} className="flex gap-2">
					<Input name="code" autoComplete="one-time-code" placeholder={t('验证码')} aria-label={t('验证码')} />
					<Button type="submit" disabled={submitting}>
						{t('登录')}
					</Button>
				</form>
			</DialogContent>
		</Dialog>
	)
}
