import { CopyIcon } from 'lucide-react'
import { useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { copyText } from '@ui/components/ui/copy'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { confirmPasswordReset } from '@ui/features/auth/api'
import { AuthCard } from '@ui/features/auth/components/auth-card'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { useHydrated } from '@ui/lib/use-hydrated'

/** /user/reset?email=&token= (the link in the reset mail): confirms the reset and shows the new password once. */
export function Component() {
	const { t } = useTranslation()
	const hydrated = useHydrated()
	const [searchParameters] = useSearchParams()
	const email = searchParameters.get('email') ?? ''
	const token = searchParameters.get('token') ?? ''
	const [submitting, setSubmitting] = useState(false)
	const [newPassword, setNewPassword] = useState<string>()
	const linkComplete = Boolean(email && token)

	async function confirm() {
		setSubmitting(true)
		const envelope = await callApi(t, confirmPasswordReset(browserApi, email, token), '密码已重置')
		setSubmitting(false)
		if (envelope) setNewPassword(envelope.data)
	}

	return (
		<AuthCard
			title={t('确认重置密码')}
			footer={
				<Link to="/login" className="font-medium text-primary hover:underline">
					{t('返回登录')}
				</Link>
			}
		>
			{!linkComplete && (
				<p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
					{t('重置链接无效或已过期')}
				</p>
			)}
			<div className="flex flex-col gap-2">
				<Label htmlFor="reset-confirm-email">{t('邮箱')}</Label>
				<Input id="reset-confirm-email" value={email} readOnly />
			</div>
			{newPassword !== undefined && (
				<div className="flex flex-col gap-2">
					<Label htmlFor="reset-confirm-password">{t('新密码')}</Label>
					<div className="flex gap-2">
						<Input id="reset-confirm-password" value={newPassword} readOnly className="font-mono" onFocus={(event) => event.currentTarget.select()} />
						<Button type="button" variant="outline" size="icon" aria-label={t('复制新密码')} onClick={() => copyText(newPassword, t)}>
							<CopyIcon />
						</Button>
					</div>
					<p className="text-xs text-muted-foreground">{t('请立即复制并妥善保存新密码，登录后可在个人设置中修改。')}</p>
				</div>
			)}
			<Button type="button" disabled={!hydrated || !linkComplete || submitting || newPassword !== undefined} onClick={confirm}>
				{newPassword !== undefined ? t('密码重置完成') : t('确认重置密码')}
			</Button>
		</AuthCard>
	)
}
