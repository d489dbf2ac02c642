import { AffinitySessionsSection } from '@ui/features/settings/operation/affinity-sessions-section'
import { ChatSection } from '@ui/features/settings/operation/chat-section'
import { DashboardSection } from '@ui/features/settings/operation/dashboard-section'
import { DrawingSection } from '@ui/features/settings/operation/drawing-section'
import { GeneralSection } from '@ui/features/settings/operation/general-section'
import { GroupSection } from '@ui/features/settings/operation/group-section'
import { LogSection } from '@ui/features/settings/operation/log-section'
import { ModelRatioArea } from '@ui/features/settings/operation/model-ratio-area'
import { MonitoringSection } from '@ui/features/settings/operation/monitoring-section'
import { QuotaSection } from '@ui/features/settings/operation/quota-section'
import { type NavSection, SectionNav } from '@ui/features/settings/operation/section-nav'
import { RateLimitSection } from '@ui/features/settings/operation/rate-limit-section'
import { RoutingSection } from '@ui/features/settings/operation/routing-section'
import { SensitiveSection } from '@ui/features/settings/operation/sensitive-section'
import { SessionsCacheSection } from '@ui/features/settings/operation/sessions-cache-section'

/** The sections in page order: their SectionCard ids and titles. */
const SECTIONS: readonly NavSection[] = [
	{ id: 'general', title: '通用设置' },
	{ id: 'drawing', title: '绘图设置' },
	{ id: 'sensitive', title: '屏蔽词过滤设置' },
	{ id: 'log', title: '日志设置' },
	{ id: 'dashboard', title: '数据看板设置' },
	{ id: 'monitoring', title: '监控设置' },
	{ id: 'rate-limit', title: '请求速率限制' },
	{ id: 'routing', title: '路由与会话亲和' },
	{ id: 'affinity-sessions', title: '会话亲和记录' },
	{ id: 'sessions-cache', title: '响应缓存与长会话' },
	{ id: 'quota', title: '额度设置' },
	{ id: 'chat', title: '聊天设置' },
	{ id: 'group', title: '分组设置' },
	{ id: 'model-ratio', title: '倍率设置' },
]

/** The super admin's operation settings (docs/specification/accounts-and-settings.md#operation-tab), each section saving its own changed keys; a section list leads to each. */
export function OperationTab() {
	return (
		<div className="flex flex-col gap-4 lg:grid lg:grid-cols-[11rem_minmax(0,1fr)] lg:items-start lg:gap-6" data-testid="operation-tab">
			<SectionNav sections={SECTIONS} label="运营设置导航" />
			<div className="flex min-w-0 flex-col gap-4">
				<GeneralSection />
				<DrawingSection />
				<SensitiveSection />
				<LogSection />
				<DashboardSection />
				<MonitoringSection />
				<RateLimitSection />
				<RoutingSection />
				<AffinitySessionsSection />
				<SessionsCacheSection />
				<QuotaSection />
				<ChatSection />
				<GroupSection />
				<ModelRatioArea />
			</div>
		</div>
	)
}
