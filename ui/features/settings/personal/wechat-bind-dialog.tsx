import { type FormEvent, useState } from 'react'
import { Button } from '@ui/components/ui/button'
import { Input } from '@ui/components/ui/input'
import { toast } from '@ui/components/ui/toaster'
import { bindWechat } from '@ui/features/settings/api'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { PersonalDialog, useDialogCall } from './personal-dialog'

type WechatBindDialogProps = { open: boolean; onOpenChange: (open: boolean) => void; qrcode: string }

export function WechatBindDialog({ open, onOpenChange, qrcode }: WechatBindDialogProps) {
	const { t } = useTranslation()
	const [code, setCode] = useState('')
	const { submitting, run } = useDialogCall(onOpenChange)

	async function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		if (!code.trim()) {
			toast.error(t('请输入验证码'))
			return
		}
		if (await run(bindWechat(browserApi, code.trim()), '微信绑定成功')) setCode('')
	}

	return (
		<PersonalDialog open={open} onOpenChange={onOpenChange} title={t('绑定微信')} description={t('扫码关注公众号，发送“验证码”获取验证码（3 分钟内有效）。')}>
			{qrcode && <img src={qrcode} alt={t('微信公众号二维码')} className="mx-auto size-48" />}
			<form noValidate onSubmit={handleSubmit} className="flex gap-2">
				<Input name="code" autoComplete="one-time-code" placeholder={t('验证码')} aria-label={t('验证码')} value={code} onChange={(event) => setCode(event.target.value)} />
				<Button type="submit" disabled={submitting}>
					{t('绑定')}
				</Button>
			</form>
		</PersonalDialog>
	)
}
