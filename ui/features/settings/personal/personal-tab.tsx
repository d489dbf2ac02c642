import { useLoaderData } from 'react-router'
import { AccountActionsCard } from '@ui/features/settings/personal/account-actions-card'
import { BindingsCard } from '@ui/features/settings/personal/bindings-card'
import { InvitationCard } from '@ui/features/settings/personal/invitation-card'
import { ProfileCard } from '@ui/features/settings/personal/profile-card'
import type { SettingData } from '@ui/features/settings/setting-route'

export function PersonalTab() {
	const { user, models, affiliateCode } = useLoaderData() as SettingData
	return (
		<div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
			<ProfileCard user={user} models={models} />
			<InvitationCard user={user} affiliateCode={affiliateCode} />
			<BindingsCard user={user} />
			<AccountActionsCard user={user} />
		</div>
	)
}
