import { BrandingSection } from '@ui/features/settings/other/branding-section'
import { NoticeSection } from '@ui/features/settings/other/notice-section'

/** The super admin's content settings (docs/specification/accounts-and-settings.md#options): notice, system name, logo, home page, about, footer. */
export function OtherTab() {
	return (
		<div className="flex flex-col gap-4" data-testid="other-tab">
			<NoticeSection />
			<BrandingSection />
		</div>
	)
}
