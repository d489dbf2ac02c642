import type { LoaderFunctionArgs } from 'react-router'
import { useSearchParams } from 'react-router'
import type { UserView } from '@shared/user'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@ui/components/ui/tabs'
import { fetchAffiliateCode, fetchUserModels } from '@ui/features/settings/api'
import { DEFAULT_SETTING_TAB, SETTING_TABS, type SettingTab } from '@ui/features/settings/constants'
import { PersonalTab } from '@ui/features/settings/personal/personal-tab'
import { useTranslation } from '@ui/i18n'
import { apiContext } from '@ui/lib/api'
import { requireSelf } from '@ui/lib/session'

export type SettingData = {
	user: UserView
	/** Null when the list could not be fetched. */
	models: string[] | null
	affiliateCode: string
}

/** The account is read fresh on every visit and after every change (revalidation re-runs this). */
export async function loader({ context }: LoaderFunctionArgs): Promise<SettingData> {
	const api = context.get(apiContext)
	const user = await requireSelf(api)
	const [models, affiliateCode] = await Promise.all([
		fetchUserModels(api).then((envelope) => (envelope.success ? envelope.data : null), () => null),
		fetchAffiliateCode(api).then((envelope) => (envelope.success ? envelope.data : user.aff_code), () => user.aff_code),
	])
	return { user, models, affiliateCode }
}

function parseTab(value: string | null): SettingTab {
	return SETTING_TABS.find((tab) => tab === value) ?? DEFAULT_SETTING_TAB
}

/** Tabs are chosen by `?tab=` (seed 000 §2); the super admin's tabs are not built yet. */
export function Component() {
	const { t } = useTranslation()
	const [searchParameters, setSearchParameters] = useSearchParams()
	const tab = parseTab(searchParameters.get('tab'))
	return (
		<div className="flex flex-col gap-4">
			<h1 className="text-xl font-semibold">{t('设置')}</h1>
			<Tabs value={tab} onValueChange={(value) => setSearchParameters({ tab: value }, { preventScrollReset: true })}>
				<TabsList>
					<TabsTrigger value="personal">{t('个人设置')}</TabsTrigger>
				</TabsList>
				<TabsContent value="personal" className="pt-4">
					<PersonalTab />
				</TabsContent>
			</Tabs>
		</div>
	)
}
