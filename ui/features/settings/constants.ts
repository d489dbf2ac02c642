/** Models shown before the list collapses. */
export const VISIBLE_MODEL_COUNT = 10

/** Personal for everyone; the other three for the super admin only (docs/specification/accounts-and-settings.md#options). */
export const SETTING_TABS = ['personal', 'operation', 'system', 'other'] as const
export type SettingTab = (typeof SETTING_TABS)[number]
export const DEFAULT_SETTING_TAB: SettingTab = 'personal'
export const ROOT_SETTING_TABS: readonly SettingTab[] = ['operation', 'system', 'other']

/** The visual model-ratio table shows this many rows a page (docs/specification/accounts-and-settings.md#operation-tab). */
export const RATIO_TABLE_PAGE_SIZE = 10

/** The data dashboard's granularities (`DataExportDefaultTime`, docs/specification/logs-and-dashboard.md#the-usage-dashboard). */
export const DATA_EXPORT_GRANULARITIES = ['hour', 'day', 'week'] as const
