import { useState } from 'react'
import { Button } from '@ui/components/ui/button'
import { ConfirmDialog } from '@ui/components/ui/confirm-dialog'
import { useTranslation } from '@ui/i18n'
import type { Envelope } from '@ui/lib/api'
import { callApi } from '@ui/lib/call-api'

type UnbindButtonProps = { testId: string; label: string; unbind: () => Promise<Envelope<unknown>>; onUnbound: () => void }

/**
 * Unbinds a sign-in service after a confirmation, for the user's own account or, in the user
 * editor, an admin's; the server refuses the account's last way to sign in and says why.
 */
export function UnbindButton({ testId, label, unbind, onUnbound }: UnbindButtonProps) {
	const { t } = useTranslation()
	const [confirming, setConfirming] = useState(false)

	async function confirm() {
		if (await callApi(t, unbind(), '解绑成功')) onUnbound()
	}

	return (
		<>
			<Button type="button" size="sm" variant="ghost" data-testid={testId} onClick={() => setConfirming(true)}>{t('解绑')}</Button>
			<ConfirmDialog
				open={confirming}
				onOpenChange={setConfirming}
				title={t('解绑 {provider}', { provider: label })}
				description={t('解绑后将不能再用 {provider} 登录此账户。', { provider: label })}
				confirmText={t('解绑')}
				destructive
				onConfirm={() => void confirm()}
			/>
		</>
	)
}
