import { type FormEvent, useState } from 'react'
import { Button } from '@ui/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@ui/components/ui/dialog'
import { Input } from '@ui/components/ui/input'
import { toast } from '@ui/components/ui/toaster'
import { wechatLogin } from '@ui/features/auth/api'
import { useTranslation } from '@ui/i18n'
import { describeError } from '@ui/lib/api'
import { browserApi } from '@ui/lib/browser-api'
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
		try {
			const envelope = await wechatLogin(browserApi, code)
			if (envelope.success) onLoggedIn(envelope.data)
			else toast.error(envelope.message)
		} catch (error) {
			toast.error(describeError(error, t))
		} finally {
			setSubmitting(false)
		}
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
