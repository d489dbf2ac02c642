import { useNavigate } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@ui/components/ui/dialog'
import { useTranslation } from '@ui/i18n'

/** The personal tab's address that opens its change-password dialog at once. */
export const changePasswordPath = '/setting?change_password=true'

/** Shown after logging in with a default password; it cannot be dismissed, only followed (to the change-password dialog). */
export function PasswordChangeDialog({ open }: { open: boolean }) {
	const { t } = useTranslation()
	const navigate = useNavigate()
	return (
		<Dialog open={open}>
			<DialogContent
				showClose={false}
				onEscapeKeyDown={(event) => event.preventDefault()}
				onInteractOutside={(event) => event.preventDefault()}
			>
				<DialogHeader>
					<DialogTitle>{t('请立即修改默认密码')}</DialogTitle>
					<DialogDescription>{t('你正在使用默认密码，任何人都可能登录这个账户。请立即修改密码。')}</DialogDescription>
				</DialogHeader>
				<DialogFooter>
					<Button onClick={() => navigate(changePasswordPath)}>{t('前往修改密码')}</Button>
				</DialogFooter>
			</DialogContent>
		</Dialog>
	)
}
