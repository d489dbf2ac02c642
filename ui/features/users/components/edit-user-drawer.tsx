import { useEffect, useState } from 'react'
import type { UserView } from '@shared/user'
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@ui/components/ui/sheet'
import { getUser } from '@ui/features/users/api'
import { EditUserForm } from '@ui/features/users/components/edit-user-form'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'

type EditUserDrawerProps = {
	/** The row being edited; null when the drawer is closed. */
	userId: number | null
	groups: string[]
	onClose: () => void
	onSaved: () => void
}

/** Reads the user afresh (GET /api/user/{id}), so the server's role rules apply before any edit. */
export function EditUserDrawer({ userId, groups, onClose, onSaved }: EditUserDrawerProps) {
	const { t } = useTranslation()
	const [user, setUser] = useState<UserView | null>(null)

	useEffect(() => {
		setUser(null)
		if (userId === null) return
		let current = true
		callApi(t, getUser(browserApi, userId)).then((envelope) => {
			if (!current) return
			if (envelope) setUser(envelope.data)
			else onClose()
		})
		return () => {
			current = false
		}
		// Only a new user id reloads; t and onClose change with every render of the page.
	}, [userId])

	return (
		<Sheet open={userId !== null} onOpenChange={(open) => !open && onClose()}>
			<SheetContent>
				<SheetHeader>
					<SheetTitle>{t('编辑用户')}</SheetTitle>
					<SheetDescription>{user ? t('用户 ID：{id}', { id: user.id }) : t('加载中…')}</SheetDescription>
				</SheetHeader>
				{user && <EditUserForm key={user.id} user={user} groups={groups} onCancel={onClose} onSaved={onSaved} />}
			</SheetContent>
		</Sheet>
	)
}
