import type { LoaderFunctionArgs } from 'react-router'
import { useLoaderData, useSearchParams } from 'react-router'
import type { UserView } from '@shared/user'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@ui/components/ui/tabs'
import { defaultCleanupTime } from '@ui/features/logs/log-query'
import { fetchAffiliateCode, fetchOptions, fetchUserModels, type OptionMap } from '@ui/features/settings/api'
import { DEFAULT_SETTING_TAB, ROOT_SETTING_TABS, SETTING_TABS, type SettingTab } from '@ui/features/settings/constants'
import { OperationTab } from '@ui/features/settings/operation/operation-tab'
import { OtherTab } from '@ui/features/settings/other/other-tab'
import { PersonalTab } from '@ui/features/settings/personal/personal-tab'
import { SystemTab } from '@ui/features/settings/system/system-tab'
import { useTranslation } from '@ui/i18n'
import { apiContext } from '@ui/lib/api'
import { isRoot, requireSelf } from '@ui/lib/session'

export type SettingData = {
	user: UserView
	/** Null when the list could not be fetched. */
	models: string[] | null
	affiliateCode: string
	/** The super admin's option texts; null for everyone else (never fetched for them) or when the call failed. */
	options: OptionMap | null
	/** Default of the log cleanup (a month ago, unix seconds), decided once so server and browser agree. */
	cleanupTime: number
}

/** The account is read fresh on every visit and after every change (revalidation re-runs this). */
export async function loader({ context }: LoaderFunctionArgs): Promise<SettingData> {
	const api = context.get(apiContext)
	const user = await requireSelf(api)
	const [models, affiliateCode, options] = await Promise.all([
		fetchUserModels(api).then((envelope) => (envelope.success ? envelope.data : null), () => null),
		fetchAffiliateCode(api).then((envelope) => (envelope.success ? envelope.data : user.aff_code), () => user.aff_code),
		isRoot(user) ? fetchOptions(api) : null,
	])
	return { user, models, affiliateCode, options, cleanupTime: defaultCleanupTime(Math.floor(Date.now() / 1000)) }
}

function parseTab(value: string | null, root: boolean): SettingTab {
	const tab = SETTING_TABS.find((candidate) => candidate === value) ?? DEFAULT_SETTING_TAB
	return root || !ROOT_SETTING_TABS.includes(tab) ? tab : DEFAULT_SETTING_TAB
}

/** Tabs are chosen by `?tab=` (docs/specification/accounts-and-settings.md#options); operation, system and other exist only for the super admin. */
export function Component() {
	const { t } = useTranslation()
	const { user, options } = useLoaderData() as SettingData
	const [searchParameters, setSearchParameters] = useSearchParams()
	const root = isRoot(user) && options !== null
	const tab = parseTab(searchParameters.get('tab'), root)
	return (
		<div className="flex flex-col gap-4">
			<h1 className="text-xl font-semibold">{t('设置')}</h1>
			<Tabs value={tab} onValueChange={(value) => setSearchParameters({ tab: value }, { preventScrollReset: true })}>
				<TabsList>
					<TabsTrigger value="personal">{t('个人设置')}</TabsTrigger>
					{root && (
						<>
							<TabsTrigger value="operation">{t('运营设置')}</TabsTrigger>
							<TabsTrigger value="system">{t('系统设置')}</TabsTrigger>
							<TabsTrigger value="other">{t('其他设置')}</TabsTrigger>
						</>
					)}
				</TabsList>
				<TabsContent value="personal" className="pt-4">
					<PersonalTab />
				</TabsContent>
				{root && (
					<>
						<TabsContent value="operation" className="pt-4">
							<OperationTab />
						</TabsContent>
						<TabsContent value="system" className="pt-4">
							<SystemTab />
						</TabsContent>
						<TabsContent value="other" className="pt-4">
							<OtherTab />
						</TabsContent>
					</>
				)}
			</Tabs>
		</div>
	)
}
