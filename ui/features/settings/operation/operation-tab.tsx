import { ChatSection } from '@ui/features/settings/operation/chat-section'
import { DashboardSection } from '@ui/features/settings/operation/dashboard-section'
import { DrawingSection } from '@ui/features/settings/operation/drawing-section'
import { GeneralSection } from '@ui/features/settings/operation/general-section'
import { GroupSection } from '@ui/features/settings/operation/group-section'
import { LogSection } from '@ui/features/settings/operation/log-section'
import { ModelRatioArea } from '@ui/features/settings/operation/model-ratio-area'
import { MonitoringSection } from '@ui/features/settings/operation/monitoring-section'
import { QuotaSection } from '@ui/features/settings/operation/quota-section'
import { RateLimitSection } from '@ui/features/settings/operation/rate-limit-section'
import { SensitiveSection } from '@ui/features/settings/operation/sensitive-section'

/** The super admin's operation settings (seed 000 §2), each section saving its own changed keys. */
export function OperationTab() {
	return (
		<div className="flex flex-col gap-4" data-testid="operation-tab">
			<GeneralSection />
			<DrawingSection />
			<SensitiveSection />
			<LogSection />
			<DashboardSection />
			<MonitoringSection />
			<RateLimitSection />
			<QuotaSection />
			<ChatSection />
			<GroupSection />
			<ModelRatioArea />
		</div>
	)
}
