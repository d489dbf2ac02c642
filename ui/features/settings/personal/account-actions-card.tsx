import { KeyRoundIcon, LockKeyholeIcon, Trash2Icon } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useSearchParams } from 'react-router'
import type { UserView } from '@shared/user'
import { Button } from '@ui/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@ui/components/ui/card'
import { generateAccessToken } from '@ui/features/settings/api'
import { AccessTokenDialog } from '@ui/features/settings/personal/access-token-dialog'
import { DeleteAccountDialog } from '@ui/features/settings/personal/delete-account-dialog'
import { PasswordDialog } from '@ui/features/settings/personal/password-dialog'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'

const CHANGE_PASSWORD_PARAMETER = 'change_password'

export function AccountActionsCard({ user }: { user: UserView }) {
	const { t } = useTranslation()
	const [accessToken, setAccessToken] = useState<string | null>(null)
	const [generating, setGenerating] = useState(false)
	const [passwordOpen, setPasswordOpen] = useState(false)
	const [deleteOpen, setDeleteOpen] = useState(false)
	const [searchParameters, setSearchParameters] = useSearchParams()

	// The default-password prompt leads here with `change_password=true`: the dialog opens at once, and
	// the flag leaves the URL (a reload does not open it again).
	useEffect(() => {
		if (searchParameters.get(CHANGE_PASSWORD_PARAMETER) !== 'true') return
		setPasswordOpen(true)
		setSearchParameters((current) => {
			const next = new URLSearchParams(current)
			next.delete(CHANGE_PASSWORD_PARAMETER)
			return next
		}, { replace: true })
	}, [searchParameters, setSearchParameters])

	async function generate() {
		setGenerating(true)
		const envelope = await callApi(t, generateAccessToken(browserApi))
		setGenerating(false)
		if (envelope) setAccessToken(envelope.data)
	}

	return (
		<Card data-testid="account-actions-card">
			<CardHeader>
				<CardTitle className="text-base">{t('账户安全')}</CardTitle>
				<CardDescription>{t('系统访问令牌可代替登录调用管理接口，请妥善保管。')}</CardDescription>
			</CardHeader>
			<CardContent className="flex flex-wrap gap-2">
				<Button variant="outline" disabled={generating} onClick={generate}>
					<KeyRoundIcon />
					{t('生成系统访问令牌')}
				</Button>
				<Button variant="outline" onClick={() => setPasswordOpen(true)}>
					<LockKeyholeIcon />
					{t('修改密码')}
				</Button>
				<Button variant="destructive" onClick={() => setDeleteOpen(true)}>
					<Trash2Icon />
					{t('删除个人账户')}
				</Button>
			</CardContent>
			<AccessTokenDialog token={accessToken} onClose={() => setAccessToken(null)} />
			<PasswordDialog open={passwordOpen} onOpenChange={setPasswordOpen} />
			<DeleteAccountDialog open={deleteOpen} onOpenChange={setDeleteOpen} username={user.username} />
		</Card>
	)
}
