/** What the dashboard's data calls answer (docs/specification/logs-and-dashboard.md#the-usage-dashboard). */
import { sourceTexts } from './define'

export const QUOTA_DATA_MESSAGE_ENTRIES = {
	disabled: ['数据看板未启用（DataExportEnabled）', 'the data dashboard is not enabled (DataExportEnabled)'],
	badRange: ['开始时间不能晚于结束时间', 'the start time must not be after the end time'],
	rangeTooLong: ['时间范围不能超过 366 天', 'the time range must not exceed 366 days'],
} as const

export const QUOTA_DATA_MESSAGES = /* @__PURE__ */ sourceTexts(QUOTA_DATA_MESSAGE_ENTRIES)
